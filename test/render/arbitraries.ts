/** What the property tests of answers draw from: hostile names, any numbers, any influencer. */
import fc from 'fast-check';
import { type Influencer, type Metric, metricNames } from '../../src/analytics/types.ts';

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
export const name = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: specials, maxLength: 200 }),
  fc.string({ unit: 'grapheme', minLength: 500, maxLength: 3000 }),
  fc.string({ unit: specials, minLength: 1000, maxLength: 4000 }),
);

export const number = fc.oneof(
  fc.integer({ min: 0, max: 2_000_000_000 }),
  fc.double({ noDefaultInfinity: false }),
  fc.constantFrom(999, 999_950, 1_500_000, 0),
);

export const metrics = fc
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

export const influencer: fc.Arbitrary<Influencer> = fc.record(
  {
    rank: fc.oneof(fc.integer({ min: -3, max: 1000 }), fc.double()),
    screenName: name,
    displayName: name,
    profileImageUrl: fc.oneof(fc.webUrl(), name, fc.constant(`https://x.test/${'a'.repeat(2900)}`)),
    hsgScore: number,
    followersCount: number,
    stakeholderCategories: fc.array(fc.record({ name }), { maxLength: 12 }),
    metrics,
  },
  { requiredKeys: ['rank', 'screenName', 'stakeholderCategories', 'metrics'] },
);

/**
 * A hundred people with long names (a short random one repeated: as hard on the layout, cheaper
 * to make), many long categories, every field set.
 */
export const hundredLongNames = (() => {
  const long = fc
    .tuple(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
      fc.integer({ min: 20, max: 80 }),
    )
    .map(([part, times]) => part.repeat(times));
  const person = fc.record({
    rank: fc.integer({ min: 1, max: 100 }),
    screenName: long,
    displayName: long,
    profileImageUrl: fc.webUrl(),
    hsgScore: number,
    followersCount: number,
    stakeholderCategories: fc.array(fc.record({ name: long }), { minLength: 5, maxLength: 8 }),
    metrics,
  });
  return fc.array(person, { minLength: 100, maxLength: 100 });
})();
