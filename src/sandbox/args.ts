/**
 * Command-line and environment parsing for `npm run sandbox`, kept pure so it can be tested
 * without starting a server.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '../errors.ts';

export interface SandboxCliOptions {
  readonly port: number;
  readonly host: string;
  readonly latencyMs: number;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly help: boolean;
}

export const defaultSandboxPort = 8787;

export const sandboxUsage = `Usage: npm run sandbox -- [--port <n>] [--host <address>] [--latency <ms>]

  --port <n>        TCP port to listen on (0-65535, 0 = any free port; default ${defaultSandboxPort})
  --host <address>  Address to bind (default 127.0.0.1)
  --latency <ms>    Delay added before answering every data request (default 0)
  --help            Show this help

Environment:
  SANDBOX_CLIENT_ID      Client id the sandbox accepts (default demo-client)
  SANDBOX_CLIENT_SECRET  Client secret the sandbox accepts (default demo-secret)`;

/**
 * Reads the sandbox's options from argv (without the node and script paths) and the environment.
 * Every problem is collected into one ConfigError so a single run shows all of them.
 */
export function parseSandboxArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): SandboxCliOptions {
  let values: { port?: string; host?: string; latency?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        latency: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ConfigError([
      `${error instanceof Error ? error.message : String(error)}\n${sandboxUsage}`,
    ]);
  }

  const problems: string[] = [];
  const port = integerOption('--port', values.port, defaultSandboxPort, 0, 65_535, problems);
  const latencyMs = integerOption('--latency', values.latency, 0, 0, 600_000, problems);
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') problems.push('--host: must not be empty');
  const clientId = env.SANDBOX_CLIENT_ID ?? 'demo-client';
  const clientSecret = env.SANDBOX_CLIENT_SECRET ?? 'demo-secret';
  if (clientId === '') problems.push('SANDBOX_CLIENT_ID: must not be empty when set');
  if (clientId.includes(':'))
    problems.push('SANDBOX_CLIENT_ID: must not contain ":" (HTTP Basic separator)');
  if (clientSecret === '') problems.push('SANDBOX_CLIENT_SECRET: must not be empty when set');
  if (problems.length > 0) throw new ConfigError(problems);

  return { port, host, latencyMs, clientId, clientSecret, help: values.help ?? false };
}

function integerOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
  problems: string[],
): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    problems.push(`${name}: expected an integer from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  const value = Number(raw.trim());
  if (value < min || value > max) {
    problems.push(`${name}: expected an integer from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

/** Quotes a value for a POSIX shell so the printed curl commands can be pasted as they are. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_.:/@%+=-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The banner printed once the sandbox listens: where it is, how to log in, what to paste. */
export function sandboxBanner(url: string, options: SandboxCliOptions): string {
  const credentials = `${options.clientId}:${options.clientSecret}`;
  const tokenCommand = `curl -s -u ${shellQuote(credentials)} -d grant_type=client_credentials ${url}/v1/oauth/token`;
  const query = 'databases=%23hcsm&start=7%20days%20ago&end=now&timezone=UTC';
  return [
    `Analytics sandbox listening on ${url}`,
    '',
    `  base URL:      ${url}`,
    `  client id:     ${options.clientId}`,
    `  client secret: ${options.clientSecret}`,
    ...(options.latencyMs > 0 ? [`  latency:       ${options.latencyMs} ms per data request`] : []),
    '',
    'Get a token:',
    `  ${tokenCommand}`,
    '',
    'Top influencers of #hcsm over the last 7 days:',
    `  TOKEN=$(${tokenCommand} | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    `  curl -s -H "Authorization: Bearer $TOKEN" '${url}/v1/twitter/analytics/people/influencers?${query}'`,
    '',
    'Press Ctrl+C to stop.',
  ].join('\n');
}
