/**
 * Requests as new users typed them (the newcomer corpus), each with what was meant: read at the
 * instant it was sent, in the zone the console was started in, as a conversation unless typed
 * after the slash command.
 */
import { expect, it } from 'vitest';
import { ChoicesError, ParseError } from '../../../src/errors.ts';
import { type LookupRequest, parseLookup } from '../../../src/parsing/index.ts';

/** What a request meant: the reading, a refusal whose Try reads, or a question with choices. */
export type Meant =
  | { readonly reads: Partial<Record<keyof LookupRequest, unknown>> }
  | {
      readonly refused: string;
      /** The Try offered, as typed; it reads and keeps `keeps`. */
      readonly tries: string;
      readonly keeps?: Partial<Record<keyof LookupRequest, unknown>>;
    }
  | { readonly asks: readonly string[] };

export interface Row {
  readonly id: string;
  readonly zone: string;
  readonly sent: string;
  readonly request: string;
  readonly meant: Meant;
}

const slash = '/influencers ';

function read(row: Row, text: string): LookupRequest | ParseError {
  const conversation = !row.request.startsWith(slash);
  return parseLookup(text.startsWith(slash) ? text.slice(slash.length) : text, {
    now: new Date(row.sent),
    zone: row.zone,
    conversation,
  });
}

/** One test a row: what it meant. */
export function checkRows(rows: readonly Row[]): void {
  for (const row of rows) {
    const name = `${row.id} ${row.request}`;
    it(name, () => {
      const result = read(row, row.request);
      const { meant } = row;
      if ('reads' in meant) {
        if (result instanceof ParseError) throw new Error(`refused: ${result.message}`);
        // A field stated as undefined is one the request must not have (KOLs: no filter).
        const stated = Object.entries(meant.reads);
        expect(result).toMatchObject(Object.fromEntries(stated.filter(([, v]) => v !== undefined)));
        for (const [key] of stated.filter(([, v]) => v === undefined)) {
          expect(result[key as keyof LookupRequest]).toBeUndefined();
        }
        if (!('leftOut' in meant.reads)) expect(result.leftOut).toBeUndefined();
        return;
      }
      expect(result).toBeInstanceOf(ParseError);
      const error = result as ParseError;
      if ('asks' in meant) {
        expect(error).toBeInstanceOf(ChoicesError);
        const commands = (error as ChoicesError).readings.map((reading) => reading.command);
        expect(commands).toEqual(meant.asks);
        for (const command of commands) {
          expect(read(row, command)).not.toBeInstanceOf(ParseError);
        }
        return;
      }
      expect(error.message).toContain(meant.refused);
      expect(error.message.endsWith(`Try: ${meant.tries}`)).toBe(true);
      const fixed = read(row, meant.tries);
      if (fixed instanceof ParseError) throw new Error(`the Try is refused: ${fixed.message}`);
      expect(fixed).toMatchObject(meant.keeps ?? {});
    });
  }
}
