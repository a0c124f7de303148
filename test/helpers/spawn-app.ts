import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { defined } from '../../src/model/defined.ts';

export const appEntry = new URL('../../src/main.ts', import.meta.url).pathname;

export interface Spawned {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name) and how long after `since` it came. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Resolves with the exit code once the process has exited and its output is all read. */
  closed: Promise<number | null>;
}

/**
 * `node src/main.ts` with exactly `env` (plus PATH) as its environment, in `cwd` when given (where
 * the console writes its exports).
 */
export function spawnApp(
  env: Record<string, string>,
  args: string[] = [],
  options: { readonly cwd?: string } = {},
): Spawned {
  return spawnNode(appEntry, env, args, options);
}

/**
 * `node <entry> ...args` with exactly `env` (plus PATH, and Node's compile cache when the run has
 * one: it changes no behaviour, only how fast modules load) as its environment.
 */
export function spawnNode(
  entry: string,
  env: Readonly<Record<string, string>>,
  args: readonly string[] = [],
  options: { readonly cwd?: string } = {},
): Spawned {
  const child = spawn(process.execPath, [entry, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      ...defined({ NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE }),
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(
    (resolve) => {
      child.on('exit', (code, signal) => resolve({ code, signal, at: performance.now() }));
    },
  );
  const closed = new Promise<number | null>((resolve) => {
    child.on('close', (code) => resolve(code));
  });
  return { child, stdout: () => out, stderr: () => err, exited, closed };
}

/** Resolves once `read()` matches `pattern`, polling; rejects after `timeoutMs`. */
export async function waitForOutput(
  read: () => string,
  pattern: RegExp,
  timeoutMs = 10_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = read().match(pattern);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`output never matched ${pattern}:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
