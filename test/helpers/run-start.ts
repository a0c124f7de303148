import { PassThrough } from 'node:stream';
import { main } from '../../src/main.ts';
import { textSink } from './text-sink.ts';

/** `npm start` run in this process: its stdin to write to, what it printed, and its exit code. */
export interface Started {
  readonly stdin: PassThrough;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the console (or a start that failed) is over. */
  readonly exited: Promise<{ code: number | undefined }>;
}

/**
 * `node src/main.ts ...args` with exactly `env` as its environment, as `spawnApp` runs it, but
 * through `main` in this process: no Node start-up and module loading per run.
 */
export function startInProcess(
  env: Record<string, string>,
  args: readonly string[] = [],
  options: { readonly cwd?: string } = {},
): Started {
  const stdin = new PassThrough();
  const stdout = textSink();
  const stderr = textSink();
  const exited = main({
    argv: args,
    env: { ...env },
    stdin,
    stdout: stdout.stream,
    stderr: stderr.stream,
    cwd: options.cwd ?? process.cwd(),
  }).then((code) => ({ code }));
  return { stdin, stdout: stdout.text, stderr: stderr.text, exited };
}
