import { Readable } from 'node:stream';
import { main } from '../../src/cli.ts';
import { spawnNode } from './spawn-app.ts';
import { textSink } from './text-sink.ts';

export interface CliRun {
  /** The exit code (`status` as spawnSync names it). */
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliRunOptions {
  /** Everything stdin holds; empty by default. */
  readonly input?: string;
  /** The environment the command reads; empty by default, as a spawned command given only PATH. */
  readonly env?: Readonly<Record<string, string>>;
}

/** `node src/cli.ts ...args`, run in this process through `main` with its own streams. */
export async function runCli(
  args: readonly string[],
  options: CliRunOptions = {},
): Promise<CliRun> {
  const stdout = textSink();
  const stderr = textSink();
  const status = await main(args, {
    stdin: Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    now: () => new Date(),
    env: { ...options.env },
  });
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}

export const cliEntry = new URL('../../src/cli.ts', import.meta.url).pathname;

/** `node src/cli.ts ...args` in a process of its own, with exactly `env` (plus PATH and TZ). */
export async function spawnCli(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<CliRun> {
  const cli = spawnNode(cliEntry, { TZ: 'Europe/Paris', ...env }, args);
  cli.child.stdin.end();
  const status = await cli.closed;
  return { status, stdout: cli.stdout(), stderr: cli.stderr() };
}
