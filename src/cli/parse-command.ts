/**
 * `parse`: shows how the bot reads a phrase, for people debugging one.
 *
 *   parse [--tz <zone>] [--now <ISO instant>] "<text>"   one JSON object; exit 0, or 2 on an error
 *   parse --jsonl [--tz <zone>] [--now <ISO instant>]    stdin lines {"text","tz"?,"now"?} -> one
 *                                                        result line each, in order; exit 0
 *
 * Results are `{"databases","start","end","timezone","top"}` in that order; errors are
 * `{"error":{"message"}}`. `--tz` defaults to UTC and `--now` to the clock (read once per run);
 * a line's own `tz`/`now` override them. Blank input lines are skipped without output; any other
 * line that is not a JSON object with a string `text` yields an error line and the stream goes on.
 */
import { createInterface } from 'node:readline';
import { DateTime } from 'luxon';
import { parseLookup } from '../parsing/index.ts';
import { resolveZone } from '../parsing/zone.ts';
import { type CliCommand, type CliIo, writeLine } from './command.ts';

const usage = 'parse [--tz <zone>] [--now <ISO instant>] (--jsonl | "<text>")';

interface Options {
  readonly tz: string | undefined;
  readonly now: string | undefined;
  readonly jsonl: boolean;
  readonly text: string | undefined;
}

type Result = { ok: true; json: string } | { ok: false; json: string };

export const command: CliCommand = {
  usage,
  async run(args, io) {
    const options = readArgs(args);
    if (typeof options === 'string') {
      await writeLine(io.stderr, `${options}\nUsage: node src/cli.ts ${usage}`);
      return 2;
    }
    const clock = io.now();
    if (options.jsonl) {
      await parseLines(options, clock, io);
      return 0;
    }
    if (options.text === undefined) {
      await writeLine(
        io.stderr,
        `parse needs the text to read, or --jsonl.\nUsage: node src/cli.ts ${usage}`,
      );
      return 2;
    }
    const result = parseOne(options.text, options.tz, options.now, clock);
    await writeLine(io.stdout, result.json);
    return result.ok ? 0 : 2;
  },
};

function readArgs(args: readonly string[]): Options | string {
  let tz: string | undefined;
  let now: string | undefined;
  let jsonl = false;
  const text: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] = arg.startsWith('--') ? splitFlag(arg) : [undefined, undefined];
    if (flag === '--jsonl' && inline === undefined) {
      jsonl = true;
    } else if (flag === '--tz' || flag === '--now') {
      const value = inline ?? args[++i];
      if (value === undefined) return `${flag} needs a value.`;
      if (flag === '--tz') tz = value;
      else now = value;
    } else if (arg === '--') {
      text.push(...args.slice(i + 1));
      break;
    } else if (flag !== undefined) {
      return `Unknown option ${arg}.`;
    } else {
      text.push(arg);
    }
  }
  if (jsonl && text.length > 0) return '--jsonl reads stdin; give no text with it.';
  return { tz, now, jsonl, text: text.length === 0 ? undefined : text.join(' ') };
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq === -1 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

const hasOffset = /(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** Exactly the CLI contract's output for one phrase. */
function parseOne(
  text: string,
  tz: string | undefined,
  now: string | undefined,
  clock: Date,
): Result {
  const zone = tz === undefined ? 'UTC' : resolveZone(tz);
  if (zone === undefined) {
    return failure(`Unknown time zone "${tz}": give an IANA name such as Europe/London, or UTC.`);
  }
  let instant = clock;
  if (now !== undefined) {
    const parsed = DateTime.fromISO(now, { setZone: true });
    if (!parsed.isValid || !hasOffset.test(now) || !now.includes('T')) {
      return failure(
        `Invalid now "${now}": give an ISO 8601 instant with an offset, such as 2026-11-21T15:30:00Z.`,
      );
    }
    instant = parsed.toJSDate();
  }
  const request = parseLookup(text, { now: instant, zone });
  if (request instanceof Error) return failure(request.message);
  const { databases, start, end, timezone, top } = request;
  return { ok: true, json: JSON.stringify({ databases, start, end, timezone, top }) };
}

function failure(message: string): Result {
  return { ok: false, json: JSON.stringify({ error: { message } }) };
}

async function parseLines(options: Options, clock: Date, io: CliIo): Promise<void> {
  const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  for await (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    await writeLine(io.stdout, parseLine(line, number, options, clock).json);
  }
}

function parseLine(line: string, number: number, options: Options, clock: Date): Result {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch {
    return failure(`Line ${number} is not JSON: expected {"text":"...","tz":"...","now":"..."}.`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return failure(
      `Line ${number} is not a JSON object: expected {"text":"...","tz":"...","now":"..."}.`,
    );
  }
  const { text, tz, now } = input as Record<string, unknown>;
  if (typeof text !== 'string') return failure(`Line ${number} has no string "text".`);
  if (tz !== undefined && typeof tz !== 'string')
    return failure(`Line ${number}: "tz" must be a string.`);
  if (now !== undefined && typeof now !== 'string')
    return failure(`Line ${number}: "now" must be a string.`);
  return parseOne(text, tz ?? options.tz, now ?? options.now, clock);
}
