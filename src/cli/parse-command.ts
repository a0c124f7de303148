/**
 * `parse`: shows how the bot reads a phrase, for people debugging one.
 *
 *   parse [--tz <zone>] [--now <ISO instant>] "<text>"   one JSON object; exit 0, or 2 on an error
 *
 * The text reads as after the slash command and in a DM alike; a leading `/influencers` is the
 * command's own name, left out.
 *   parse --jsonl [--tz <zone>] [--now <ISO instant>]    stdin lines {"text","tz"?,"now"?} -> one
 *                                                        result line each, in order; exit 0
 *
 * Results are `{"databases","start","end","timezone","top"}` in that order, then `"compare":
 * {"start","end"}`, `"metric"`, `"presentation"`, `"stakeholders": {"include","exclude"}` (the
 * service's category names), `"orderBy": "followers"`, `"trend"`, `"person"` and `"export": true`
 * only when the text asks for them (`vs previous period`, `by mentions`, `table`, `doctors`, `by
 * followers`, `weekly`, `@handle`, `export`), and `"leftOut"` with the loose words left out beside
 * a database (`#hcsm; DROP TABLE digests;--`); errors are `{"error":{"message"}}`, and a text
 * that reads two honest ways (`#hcsm 3/11/2026 to 10/11/2026`: the CLI knows no locale) adds
 * `"choices": [{"meaning","command"}]`, one command a reading. U+2028 and U+2029 are escaped in the output and
 * end no input line, so one line is one line for every reader. `--tz` defaults to UTC and `--now` to the clock (read once per run);
 * a line's own `tz`/`now` override them, and `null` means the default. Every input line gets
 * exactly one output line, blank ones included (an error saying the line is empty), so outputs
 * match inputs by position; a UTF-8 byte order mark before the first line is ignored.
 *
 * `now` must be an ISO 8601 instant with an offset from -14:00 to +14:00, from 1970 on, so the
 * parser itself never receives an invalid `now`; as in the bot, a window starting before the
 * earliest data (2006-03-21) is an error.
 * When the reader of stdout goes away (`... --jsonl | head -1`), the command stops quietly with 0.
 */
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { DateTime } from 'luxon';
import { ChoicesError } from '../errors.ts';
import { slashCommand } from '../model/commands.ts';
import { defined } from '../model/defined.ts';
import { parseLookup } from '../parsing/index.ts';
import { resolveZone } from '../time/zone-names.ts';
import { type CliCommand, type CliIo, readArguments, writeLine } from './command.ts';

const usage = 'parse [--tz <zone>] [--now <ISO instant>] (--jsonl | "<text>")';

const help = `Shows how the bot reads a phrase, as one JSON object.
  --tz <zone>            the zone the phrase is read in (default UTC)
  --now <ISO instant>    the clock, with an offset, e.g. 2026-11-21T15:30:00Z (default now)
  --jsonl                read {"text","tz","now"} lines from stdin and print one result line each`;

interface Options {
  readonly tz: string | undefined;
  readonly now: string | undefined;
  readonly jsonl: boolean;
  readonly text: string | undefined;
}

type Result = { ok: true; json: string } | { ok: false; json: string };

export const command: CliCommand = {
  usage,
  help,
  async run(args, io) {
    const options = readArgs(args);
    if (typeof options === 'string') {
      await writeLine(io.stderr, `${options}\nUsage: node src/cli.ts ${usage}`);
      return 2;
    }
    const clock = io.now();
    const out = new Output(io.stdout);
    if (options.jsonl) {
      await parseLines(options, clock, io, out);
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
    await out.line(result.json);
    return result.ok ? 0 : 2;
  },
};

function readArgs(args: readonly string[]): Options | string {
  const parsed = readArguments({
    args: [...args],
    options: {
      tz: { type: 'string' },
      now: { type: 'string' },
      jsonl: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (typeof parsed === 'string') return parsed;
  const { values, positionals } = parsed;
  if (values.jsonl && positionals.length > 0) return '--jsonl reads stdin; give no text with it.';
  return {
    tz: values.tz,
    now: values.now,
    jsonl: values.jsonl ?? false,
    text: positionals.length === 0 ? undefined : positionals.join(' '),
  };
}

const hasOffset = /(Z|[+-]\d{2}(:?\d{2})?)$/i;
const offsetPart = /([+-])(\d{2}):?(\d{2})?$/;
/** No `now` may be earlier: nothing was posted before it. */
const epoch = Date.UTC(1970, 0, 1);

/** Exactly the CLI contract's output for one phrase. */
/**
 * The text after a leading `/influencers`, as the slash command hands it over: a phrase pasted
 * from Slack (`/influencers who drove #hcsm last week?`) reads as it does there and in a DM.
 */
function withoutSlashCommand(text: string): string {
  const start = text.trimStart();
  const named = start.slice(0, slashCommand.length).toLowerCase() === slashCommand;
  const after = start.charAt(slashCommand.length);
  return named && (after === '' || after === ' ') ? start.slice(slashCommand.length) : text;
}

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
  const instant = now === undefined ? clock : readNow(now);
  if (typeof instant === 'string') return failure(instant);
  const request = parseLookup(withoutSlashCommand(text), { now: instant, zone });
  if (request instanceof ChoicesError) {
    const choices = request.readings.map(({ meaning, command }) => ({ meaning, command }));
    return { ok: false, json: jsonLine({ error: { message: request.message }, choices }) };
  }
  if (request instanceof Error) return failure(request.message);
  const { databases, start, end, timezone, top, compare, metric, presentation } = request;
  const { stakeholders, orderBy, trend, person, leftOut } = request;
  return {
    ok: true,
    json: jsonLine({
      databases,
      start,
      end,
      timezone,
      top,
      ...defined({ compare, metric, presentation, stakeholders, orderBy, trend, person }),
      ...(request.export === true ? { export: true } : {}),
      ...defined({ leftOut }),
    }),
  };
}

/**
 * JSON on one line whatever it holds: U+2028 and U+2029, which JSON leaves raw in strings, end a
 * line for many readers (JavaScript's line splitting, Node's readline), so they are escaped.
 */
function jsonLine(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** `--now` or a line's `now` as an instant the parser accepts, or the message saying why not. */
function readNow(now: string): Date | string {
  const invalid = `Invalid now "${now}": give an ISO 8601 instant with an offset, such as 2026-11-21T15:30:00Z.`;
  const parsed = DateTime.fromISO(now, { setZone: true });
  if (!parsed.isValid || !hasOffset.test(now) || !now.includes('T')) return invalid;
  const offset = offsetPart.exec(now);
  if (offset !== null && Number(offset[2]) * 60 + Number(offset[3] ?? 0) > 14 * 60) {
    return `Invalid now "${now}": the offset ${offset[0]} is not a real one; offsets run from -14:00 to +14:00.`;
  }
  if (parsed.toMillis() < epoch) {
    return `Invalid now "${now}": it is before 1970, and there is no data that old.`;
  }
  return parsed.toJSDate();
}

function failure(message: string): Result {
  return { ok: false, json: jsonLine({ error: { message } }) };
}

/**
 * stdout with its reader's departure noticed: once the pipe closes (EPIPE), writes stop instead
 * of raising an error nobody can read.
 */
class Output {
  closed = false;
  readonly #stream: Writable;

  constructor(stream: Writable) {
    this.#stream = stream;
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      this.closed = true;
    });
  }

  async line(text: string): Promise<void> {
    if (this.closed) return;
    if (this.#stream.write(`${text}\n`)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.#stream.off('drain', done);
        this.#stream.off('error', done);
        this.#stream.off('close', done);
        resolve();
      };
      this.#stream.once('drain', done);
      this.#stream.once('error', done);
      this.#stream.once('close', done);
    });
  }
}

async function parseLines(options: Options, clock: Date, io: CliIo, out: Output): Promise<void> {
  let number = 0;
  for await (const raw of inputLines(io.stdin)) {
    number++;
    const line = number === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    await out.line(readLine(line, number, options, clock).json);
    if (out.closed) break;
  }
}

/**
 * The lines of `input`, split at LF (a CR before it dropped) and nowhere else: readline also ends
 * a line at a lone CR, U+2028 and U+2029, which may stand inside a JSON string and would shift
 * every later answer. A last line without LF still counts.
 */
async function* inputLines(input: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  for await (const chunk of input) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    let end = pending.indexOf('\n');
    while (end !== -1) {
      yield pending.slice(0, end).replace(/\r$/, '');
      pending = pending.slice(end + 1);
      end = pending.indexOf('\n');
    }
  }
  pending += decoder.end();
  if (pending !== '') yield pending.replace(/\r$/, '');
}

const expected = 'expected {"text":"...","tz":"...","now":"..."}';

/**
 * One line's result whatever happens inside the parser: a fault there is that line's error line,
 * so the lines after it are still read and outputs keep matching inputs by position.
 */
function readLine(line: string, number: number, options: Options, clock: Date): Result {
  try {
    return parseLine(line, number, options, clock);
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    return failure(`Line ${number} could not be read: the parser failed (${name}).`);
  }
}

function parseLine(line: string, number: number, options: Options, clock: Date): Result {
  if (line.trim() === '') return failure(`Line ${number} is empty: ${expected}.`);
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch {
    return failure(`Line ${number} is not JSON: ${expected}.`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return failure(`Line ${number} is not a JSON object: ${expected}.`);
  }
  const { text, tz, now } = input as Record<string, unknown>;
  if (typeof text !== 'string') return failure(`Line ${number} has no string "text".`);
  if (tz !== undefined && tz !== null && typeof tz !== 'string')
    return failure(`Line ${number}: "tz" must be a string or null.`);
  if (now !== undefined && now !== null && typeof now !== 'string')
    return failure(`Line ${number}: "now" must be a string or null.`);
  return parseOne(text, tz ?? options.tz, now ?? options.now, clock);
}
