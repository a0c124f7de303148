/** What every `node src/cli.ts <command>` module provides. */
import type { Readable, Writable } from 'node:stream';

export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** The only clock the CLI commands read. */
  readonly now: () => Date;
}

export interface CliCommand {
  /** One line for the usage text: arguments and what it does. */
  readonly usage: string;
  /** Resolves to the process exit code: 0 success, 1 failure, 2 bad input. */
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/** Writes and waits when the stream asks for it, so long outputs keep their order and memory flat. */
export async function writeLine(stream: Writable, line: string): Promise<void> {
  if (!stream.write(`${line}\n`)) {
    await new Promise<void>((resolve) => stream.once('drain', resolve));
  }
}
