/**
 * The process entry (`npm start`): reads the config, then runs the local console, Socket Mode or
 * HTTP mode. HTTP mode binds `$PORT` before it loads the Slack app (Bolt and the rest take most of
 * a second to load, several on a busy machine): a platform that stops a process which has not
 * bound its port in time sees it bound at once, and `/healthz` says "starting" until the app is
 * ready (`slack/http/starting.ts`). Tests and benchmarks import `createApp` from `app.ts` instead.
 */
import { existsSync } from 'node:fs';
import { readArguments } from './cli/command.ts';
import { type Config, type ConsoleConfig, loadConfig } from './config/app-config.ts';
import { ConfigError } from './errors.ts';
import { createLogger } from './logger.ts';
import { defined } from './model/defined.ts';
import { startFailureText, startUsageText } from './render/startup.ts';
import { listen, slackServer } from './slack/http/server.ts';
import { startingGate } from './slack/http/starting.ts';

/**
 * `--tz Europe/Paris` or `--tz=Europe/Paris` on the command line (console mode only).
 *
 * @throws ConfigError for any other argument, or `--tz` without a zone.
 */
export function zoneArgument(argv: readonly string[]): string | undefined {
  const parsed = readArguments({
    args: [...argv],
    options: { tz: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  if (typeof parsed === 'string') {
    throw new ConfigError([`${parsed} The console takes only --tz <zone>.`]);
  }
  return parsed.values.tz;
}

/** `.env` in the working directory, when there is one; variables already set win over it. */
function loadDotEnv(): void {
  if (existsSync('.env')) process.loadEnvFile('.env');
}

async function main(): Promise<void> {
  if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
    process.stdout.write(`${startUsageText}\n`);
    return;
  }
  loadDotEnv();
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${startFailureText({ kind: 'config', problems: error.problems })}\n`);
      process.exit(1);
    }
    throw error;
  }

  if (config.mode === 'console') {
    await runConsoleMode(config);
    return;
  }

  const logger = createLogger({ level: config.logLevel });
  let server: ReturnType<typeof slackServer> | undefined;
  if (config.mode === 'http') {
    server = slackServer(
      startingGate({
        next: () => undefined,
        ready: () => false,
        about: { version: config.version, mode: config.mode },
      }),
    );
    try {
      const port = await listen(server, config.port);
      logger.info(
        { port, sinceProcessStartMs: Math.round(process.uptime() * 1000) },
        'listening; /healthz says starting until Slack confirms the bot token',
      );
    } catch (error) {
      const { startFailure } = await import('./slack/process/startup.ts');
      process.stderr.write(`${startFailureText(startFailure(error, config.port))}\n`);
      process.exit(1);
    }
  }
  const { runSlackApp } = await import('./app.ts');
  await runSlackApp(config, { logger, ...defined({ server }) });
}
async function runConsoleMode(config: ConsoleConfig): Promise<void> {
  let zone: string | undefined;
  try {
    zone = zoneArgument(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.problems.join('\n')}\n`);
    process.exit(2);
  }
  // Loaded here only: HTTP and Socket Mode never need the console, its sandbox or its readline.
  const { runConsole } = await import('./console/console.ts');
  const code = await runConsole(config, {
    input: process.stdin,
    output: process.stdout,
    errors: process.stderr,
    logLevel: config.logLevel,
    ...defined({ zone }),
  });
  process.exit(code);
}

if (import.meta.main) await main();
