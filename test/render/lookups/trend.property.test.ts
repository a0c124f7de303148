import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metricNames } from '../../../src/analytics/types.ts';
import { type LookupRequest, trendUnits } from '../../../src/model/lookup.ts';
import { withoutNewBlocks } from '../../../src/render/blocks.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import { renderPerson } from '../../../src/render/lookups/person.ts';
import {
  renderPending,
  renderStillRunning,
  renderTimedOut,
} from '../../../src/render/lookups/status.ts';
import { renderTrend } from '../../../src/render/lookups/trend.ts';
import { renderTrendCsv } from '../../../src/render/lookups/trend-csv.ts';
import { type Period, recentPeriods } from '../../../src/time/periods.ts';
import { hundredLongNames, influencer, name } from '../arbitraries.ts';

const zones = fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe');

/** A trend as the parser writes one: its window spans its periods exactly. */
const trend = fc
  .record({
    databases: fc.array(name, { minLength: 1, maxLength: 20 }),
    now: fc.date({
      min: new Date('2015-01-01T00:00:00Z'),
      max: new Date('2030-01-01T00:00:00Z'),
      noInvalidDate: true,
    }),
    count: fc.integer({ min: 2, max: 20 }),
    unit: fc.constantFrom(...trendUnits),
    timezone: zones,
    top: fc.integer({ min: 1, max: 100 }),
    metric: fc.option(fc.constantFrom(...metricNames), { nil: undefined }),
    person: fc.option(name, { nil: undefined }),
  })
  .map(({ now, count, unit, timezone, metric, person, ...rest }) => {
    const periods = recentPeriods(unit, count, now, timezone);
    const request: LookupRequest = {
      ...rest,
      start: periods[0]?.start ?? now.toISOString(),
      end: periods.at(-1)?.end ?? now.toISOString(),
      timezone,
      trend: { unit },
      ...(metric === undefined ? {} : { metric }),
      ...(person === undefined ? {} : { person }),
    };
    return { request, periods };
  });

const ranking = fc.array(influencer, { maxLength: 12 }).map((influencers) => ({ influencers }));

const options = fc.record(
  {
    shareable: fc.boolean(),
    note: name,
    audience: fc.constantFrom('ephemeral' as const, 'channel' as const),
    actions: fc.boolean(),
  },
  { requiredKeys: [] },
);

const rankingsFor = (periods: readonly Period[]) =>
  fc
    .array(ranking, { minLength: periods.length, maxLength: periods.length })
    .map((results) =>
      periods.map((period, index) => ({ period, result: results[index] ?? { influencers: [] } })),
    );

// Pure CPU work, some seconds of it on an idle core: the generous timeout is for a machine busy with
// other work, where the default cut these runs short without anything being wrong.
describe('trend and person answers for any input', { timeout: 60_000 }, () => {
  it('keep every Block Kit limit and a notification text, also without tables and charts', () => {
    fc.assert(
      fc.property(
        trend.chain(({ request, periods }) =>
          fc.tuple(fc.constant(request), rankingsFor(periods), options),
        ),
        ([request, rankings, answerOptions]) => {
          for (const message of [
            renderTrend(request, rankings, answerOptions),
            renderPerson(
              { ...request, person: request.person ?? 'alice' },
              {
                current: rankings.at(-1)?.result ?? { influencers: [] },
                previous: rankings[0]?.result ?? { influencers: [] },
                weeks: rankings.slice(-8),
              },
              answerOptions,
            ),
            renderPending(request),
            renderStillRunning(request, 9_000),
            renderTimedOut(request),
          ]) {
            expect(checkBlockKitLimits(message)).toEqual([]);
            expect(message.text.trim().length).toBeGreaterThan(0);
            expect(JSON.stringify(message)).not.toContain('undefined');
            expect(checkBlockKitLimits(withoutNewBlocks(message))).toEqual([]);
          }
          expect(renderTrendCsv(request, rankings).content.startsWith('\uFEFF')).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keep every limit with twenty periods of a hundred long names', () => {
    const hundred = hundredLongNames;
    fc.assert(
      fc.property(trend, hundred, ({ request, periods }, influencers) => {
        const rankings = periods.map((period) => ({ period, result: { influencers } }));
        const message = renderTrend({ ...request, top: 100 }, rankings, {
          actions: true,
          shareable: true,
        });
        expect(checkBlockKitLimits(message)).toEqual([]);
        expect(checkBlockKitLimits(withoutNewBlocks(message))).toEqual([]);
      }),
      { numRuns: 15 },
    );
  });
});
