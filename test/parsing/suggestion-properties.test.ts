import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { type LookupRequest, parseLookup } from '../../src/parsing/index.ts';

const context = { now: new Date('2026-11-21T15:30:00Z'), zone: 'Europe/Paris' };

/** One slot of a request, as typed, and the slip that breaks it. */
interface Slot {
  readonly text: string;
  readonly broken: string;
}

const databases = fc.constantFrom<Slot>(
  { text: '#hcsm', broken: '#hcsm' },
  { text: '#bcsm', broken: '#bcsm' },
  { text: '"breast cancer"', broken: '"breast cancer"' },
  { text: '#hcsm, #lcsm', broken: '#hcsm, #lcsm' },
);
const windows = fc.constantFrom<Slot>(
  { text: 'yesterday', broken: 'yestreday' },
  { text: 'last week', broken: 'lst week' },
  { text: 'last month', broken: 'last mnth' },
  { text: 'last 7 days', broken: 'last 7 dyas' },
  { text: 'this month', broken: 'this montth' },
);
const options = fc.subarray(
  [
    { text: 'doctors', broken: 'doctors' },
    { text: 'top 5', broken: 'top 5' },
    { text: 'by retweets', broken: 'by retweats' },
    { text: 'table', broken: 'table' },
    { text: 'in Europe/London', broken: 'in Europe/Londn' },
  ] satisfies Slot[],
  { maxLength: 3 },
);

/** The slots a reading holds, which a suggestion must keep. */
function slotsOf(request: LookupRequest): unknown {
  const { databases, start, end, timezone, top, metric, presentation, stakeholders } = request;
  return { databases, start, end, timezone, top, metric, presentation, stakeholders };
}

/** The command a refusal offers, without the slash command (absent in a conversation). */
function suggestion(error: ParseError): string | undefined {
  const at = error.message.lastIndexOf('Try: ');
  return at === -1
    ? undefined
    : error.message.slice(at + 'Try: '.length).replace(/^\/influencers /, '');
}

describe('suggestions (properties)', () => {
  it('offers for a request with one slip a command that reads and keeps every slot', () => {
    const requests = fc
      .tuple(databases, windows, options, fc.nat({ max: 4 }))
      .map(([database, window, rest, slip]) => {
        const slots = [database, window, ...rest];
        const broken = slip % slots.length === 0 ? 1 : slip % slots.length;
        const at = slots[broken]?.broken === slots[broken]?.text ? 1 : broken;
        return {
          text: slots.map((slot) => slot.text).join(' '),
          broken: slots.map((slot, i) => (i === at ? slot.broken : slot.text)).join(' '),
        };
      });
    fc.assert(
      fc.property(requests, ({ text, broken }) => {
        const original = parseLookup(text, context);
        if (original instanceof ParseError) throw new Error(`${text}: ${original.message}`);
        const result = parseLookup(broken, context);
        if (!(result instanceof ParseError)) {
          expect(slotsOf(result)).toEqual(slotsOf(original));
          return;
        }
        const offered = suggestion(result);
        expect([broken, offered]).not.toEqual([broken, undefined]);
        const fixed = parseLookup(offered as string, context);
        if (fixed instanceof ParseError)
          throw new Error(`${broken} -> ${offered}: ${fixed.message}`);
        expect([broken, slotsOf(fixed)]).toEqual([broken, slotsOf(original)]);
      }),
      { numRuns: 300 },
    );
  });

  it('does so in a conversation too, for questions and repeated options', () => {
    const openings = fc.constantFrom(
      '',
      'who got talked about in ',
      'where do people rank in ',
      'hey, show me ',
    );
    const requests = fc
      .tuple(openings, databases, windows, options, fc.boolean())
      .map(([opening, database, window, rest, repeat]) => {
        const kept = `${opening}${[database, window, ...rest].map((slot) => slot.text).join(' ')}`;
        // A slip in the window, and maybe an option given twice (`top 5 top 5`, `table table`).
        const again = rest.find((slot) => slot.text === 'top 5' || slot.text === 'table');
        const slipped = kept.replace(window.text, window.broken);
        return {
          text: kept,
          broken: repeat && again !== undefined ? `${slipped} ${again.text}` : slipped,
        };
      });
    const conversation = { ...context, conversation: true };
    fc.assert(
      fc.property(requests, ({ text, broken }) => {
        const original = parseLookup(text, conversation);
        if (original instanceof ParseError) throw new Error(`${text}: ${original.message}`);
        const result = parseLookup(broken, conversation);
        if (!(result instanceof ParseError)) return;
        const offered = suggestion(result);
        expect([broken, offered]).not.toEqual([broken, undefined]);
        const fixed = parseLookup(offered as string, conversation);
        if (fixed instanceof ParseError)
          throw new Error(`${broken} -> ${offered}: ${fixed.message}`);
        expect([broken, slotsOf(fixed)]).toEqual([broken, slotsOf(original)]);
      }),
      { numRuns: 300 },
    );
  });
});
