/** What every `node src/cli.ts <command>` module provides. */
import type { Readable, Writable } from 'node:stream';
import { type ParseArgsConfig, parseArgs } from 'node:util';

export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** The only clock the CLI commands read. */
  readonly now: () => Date;
  /** The process environment, read by the entry point and interpreted only by `config.ts`. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface CliCommand {
  /** One line for the usage text: arguments and what it does. */
  readonly usage: string;
  /** What `--help` adds under the usage line: what the command is for and each option. */
  readonly help: string;
  /** Resolves to the process exit code: 0 success, 1 failure, 2 bad input. */
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/** Writes and waits when the stream asks for it, so long outputs keep their order and memory flat. */
export async function writeLine(stream: Writable, line: string): Promise<void> {
  if (!stream.write(`${line}\n`)) {
    await new Promise<void>((resolve) => stream.once('drain', resolve));
  }
}

/**
 * `util.parseArgs` in strict mode for every command, so `--flag value` and `--flag=value` both
 * work and anything unknown is refused. Returns the refusal as one sentence naming the argument,
 * for the command to print above its usage line.
 */
export function readArguments<const T extends ParseArgsConfig & { readonly strict: true }>(
  config: T,
): ReturnType<typeof parseArgs<T>> | string {
  try {
    return parseArgs(config);
  } catch (error) {
    if (!(error instanceof TypeError && String(errorCode(error)).startsWith('ERR_PARSE_ARGS'))) {
      throw error;
    }
    return argumentProblem(config) ?? `${error.message}.`;
  }
}

/** The first argument strict parsing refuses, found by reading the arguments leniently. */
function argumentProblem(config: ParseArgsConfig): string | undefined {
  const options = config.options ?? {};
  const { tokens } = parseArgs({ ...config, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (!config.allowPositionals) return `Unknown argument "${token.value}".`;
    } else if (token.kind === 'option') {
      const type = Object.hasOwn(options, token.name) ? options[token.name]?.type : undefined;
      if (type === undefined) return `Unknown argument "${token.rawName}".`;
      if (type === 'boolean' && token.value !== undefined)
        return `${token.rawName} takes no value.`;
      if (
        type === 'string' &&
        (token.value === undefined || (!token.inlineValue && token.value.startsWith('-')))
      ) {
        return `${token.rawName} needs a value.`;
      }
    }
  }
  return undefined;
}

function errorCode(error: Error): unknown {
  return (error as { code?: unknown }).code;
}
