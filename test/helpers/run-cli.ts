import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { main } from '../../src/cli.ts';
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
export function spawnCli(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [cliEntry, ...args], {
    env: { PATH: process.env.PATH ?? '', TZ: 'Europe/Paris', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve) => {
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
