/**
 * The process entry (`npm start`): reads the config, then runs the local console, Socket Mode or
 * HTTP mode. HTTP mode binds `$PORT` before it loads the Slack app (Bolt and the rest take most of
 * a second to load, several on a busy machine): a platform that stops a process which has not
 * bound its port in time sees it bound at once, and `/healthz` says "starting" until the app is
 * ready (`http/starting.ts`). Tests and benchmarks import `createApp` from `app.ts` instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { readArguments } from './cli/command.ts';
import { type Config, type ConsoleConfig, loadConfig } from './config/app-config.ts';
import { ConfigError } from './errors.ts';
import { appServer, listen } from './http/server.ts';
import { startingGate } from './http/starting.ts';
import { createLogger } from './logger.ts';
import { defined } from './model/defined.ts';
import { startFailureText, startUsageText } from './render/startup.ts';

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

/** What `npm start` reads and writes: the process's own, or a test's. */
export interface StartIo {
  /** The arguments after the script's path. */
  readonly argv: readonly string[];
  /** The environment; `.env` adds the variables it does not set (to `process.env` in the app). */
  readonly env: Record<string, string | undefined>;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Where `.env` is looked for and the console writes its exports. */
  readonly cwd: string;
}

function processIo(): StartIo {
  return {
    argv: process.argv.slice(2),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
  };
}

/** `.env` in the working directory, when there is one; variables already set win over it. */
function loadDotEnv(io: StartIo): void {
  const path = join(io.cwd, '.env');
  if (!existsSync(path)) return;
  for (const [name, value] of Object.entries(parseEnv(readFileSync(path, 'utf8')))) {
    if (io.env[name] === undefined) io.env[name] = value;
  }
}

/**
 * `npm start`: resolves with the exit code once the console or a failed start is over, or with
 * undefined while the Slack app runs (it ends the process itself on SIGTERM). Tests pass their
 * own `io` to run the console in-process.
 */
export async function main(io: StartIo = processIo()): Promise<number | undefined> {
  if (io.argv.some((arg) => arg === '--help' || arg === '-h')) {
    io.stdout.write(`${startUsageText}\n`);
    return 0;
  }
  loadDotEnv(io);
  let config: Config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`${startFailureText({ kind: 'config', problems: error.problems })}\n`);
      return 1;
    }
    throw error;
  }

  if (config.mode === 'console') return runConsoleMode(config, io);

  const logger = createLogger({ level: config.logLevel });
  let server: ReturnType<typeof appServer> | undefined;
  if (config.mode === 'http') {
    server = appServer(
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
      io.stderr.write(`${startFailureText(startFailure(error, config.port))}\n`);
      return 1;
    }
  }
  const { runSlackApp } = await import('./app.ts');
  return runSlackApp(config, { logger, stderr: io.stderr, ...defined({ server }) });
}

async function runConsoleMode(config: ConsoleConfig, io: StartIo): Promise<number> {
  let zone: string | undefined;
  try {
    zone = zoneArgument(io.argv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`${error.problems.join('\n')}\n`);
    return 2;
  }
  // Loaded here only: HTTP and Socket Mode never need the console, its sandbox or its readline.
  const { runConsole } = await import('./console/console.ts');
  return runConsole(config, {
    input: io.stdin,
    output: io.stdout,
    errors: io.stderr,
    logLevel: config.logLevel,
    cwd: io.cwd,
    ...defined({ zone }),
  });
}

if (import.meta.main) {
  const code = await main();
  if (code !== undefined) process.exit(code);
}
