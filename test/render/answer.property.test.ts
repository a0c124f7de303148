import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Influencer, type Metric, metricNames } from '../../src/analytics/types.ts';
import type { LookupRequest } from '../../src/model/lookup.ts';
import { renderAnswer } from '../../src/render/answer.ts';
import { checkBlockKitLimits } from '../../src/render/limits.ts';
import { renderPending, renderStillRunning, renderTimedOut } from '../../src/render/status.ts';

const specials = fc.constantFrom(
  '*',
  '_',
  '~',
  '`',
  '<',
  '>',
  '&',
  '|',
  '!',
  '@',
  '#',
  ':',
  ' ',
  '\n',
  'a',
  'é',
  '😀',
  '\u202E',
  '<!channel>',
  '<@U123>',
  '&amp;',
);

/** Any Unicode (lone surrogates included), mrkdwn specials, and names thousands of characters long. */
const name = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: specials, maxLength: 200 }),
  fc.string({ unit: 'grapheme', minLength: 500, maxLength: 3000 }),
  fc.string({ unit: specials, minLength: 1000, maxLength: 4000 }),
);

const number = fc.oneof(
  fc.integer({ min: 0, max: 2_000_000_000 }),
  fc.double({ noDefaultInfinity: false }),
  fc.constantFrom(999, 999_950, 1_500_000, 0),
);

const metrics = fc
  .uniqueArray(fc.constantFrom(...metricNames), { maxLength: metricNames.length })
  .chain((keys) =>
    fc
      .tuple(...keys.map(() => number))
      .map(
        (values) =>
          Object.fromEntries(keys.map((key, i) => [key, values[i]])) as Partial<
            Record<Metric, number>
          >,
      ),
  );

const influencer: fc.Arbitrary<Influencer> = fc.record(
  {
    rank: fc.oneof(fc.integer({ min: -3, max: 1000 }), fc.double()),
    screenName: name,
    displayName: name,
    profileImageUrl: fc.oneof(fc.webUrl(), name, fc.constant(`https://x.test/${'a'.repeat(2900)}`)),
    hsgScore: number,
    stakeholderCategories: fc.array(fc.record({ name }), { maxLength: 12 }),
    metrics,
  },
  { requiredKeys: ['rank', 'screenName', 'stakeholderCategories', 'metrics'] },
);

const zones = fc.constantFrom(
  'UTC',
  'America/New_York',
  'Europe/London',
  'Asia/Kolkata',
  'Australia/Sydney',
  'Not/AZone',
);

const request: fc.Arbitrary<LookupRequest> = fc
  .record({
    databases: fc.array(name, { minLength: 1, maxLength: 60 }),
    start: fc.date({
      min: new Date('2015-01-01T00:00:00Z'),
      max: new Date('2030-01-01T00:00:00Z'),
      noInvalidDate: true,
    }),
    days: fc.integer({ min: 1, max: 400 }),
    timezone: zones,
    top: fc.oneof(fc.constant(50), fc.integer({ min: 1, max: 50 })),
  })
  .map(({ databases, start, days, timezone, top }) => ({
    databases,
    start: start.toISOString(),
    end: new Date(start.getTime() + days * 86_400_000).toISOString(),
    timezone,
    top,
  }));

const options = fc.record(
  {
    shareable: fc.boolean(),
    note: name,
    audience: fc.constantFrom('ephemeral' as const, 'channel' as const),
  },
  { requiredKeys: [] },
);

describe('renderAnswer for any input', () => {
  it('keeps every Block Kit limit and a non-empty notification text', () => {
    fc.assert(
      fc.property(
        request,
        fc.array(influencer, { maxLength: 50 }),
        options,
        (lookup, influencers, answerOptions) => {
          const message = renderAnswer(lookup, { influencers }, answerOptions);
          expect(checkBlockKitLimits(message)).toEqual([]);
          expect(message.text.trim().length).toBeGreaterThan(0);
          expect(JSON.stringify(message)).not.toContain('undefined');
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps every limit in the status messages', () => {
    fc.assert(
      fc.property(request, name, fc.nat(), (lookup, note, elapsed) => {
        for (const message of [
          renderPending(lookup, { note }),
          renderStillRunning(lookup, elapsed),
          renderTimedOut(lookup),
        ]) {
          expect(checkBlockKitLimits(message)).toEqual([]);
        }
      }),
      { numRuns: 100 },
    );
  });
});
