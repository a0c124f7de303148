import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metricNames } from '../../../src/analytics/types.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { Presentation } from '../../../src/model/presentation.ts';
import { withoutNewBlocks } from '../../../src/render/blocks.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import { renderAnswer } from '../../../src/render/lookups/answer.ts';
import {
  renderPending,
  renderStillRunning,
  renderTimedOut,
} from '../../../src/render/lookups/status.ts';
import { hundredLongNames, influencer, name } from '../arbitraries.ts';

const presentations = fc.constantFrom<Presentation>('list', 'table', 'chart', 'category_chart');

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
    top: fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 100 })),
    compare: fc.boolean(),
    metric: fc.option(fc.constantFrom(...metricNames), { nil: undefined }),
    presentation: fc.option(presentations, { nil: undefined }),
  })
  .map(({ databases, start, days, timezone, top, compare, metric, presentation }) => ({
    databases,
    start: start.toISOString(),
    end: new Date(start.getTime() + days * 86_400_000).toISOString(),
    timezone,
    top,
    ...(compare
      ? {
          compare: {
            start: new Date(start.getTime() - days * 86_400_000).toISOString(),
            end: start.toISOString(),
          },
        }
      : {}),
    ...(metric === undefined ? {} : { metric }),
    ...(presentation === undefined ? {} : { presentation }),
  }));

const ranking = fc.array(influencer, { maxLength: 100 });

const options = fc.record(
  {
    shareable: fc.boolean(),
    note: name,
    audience: fc.constantFrom('ephemeral' as const, 'channel' as const),
    previous: ranking.map((influencers) => ({ influencers })),
    presentation: presentations,
    actions: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('renderAnswer for any input', () => {
  it('keeps every Block Kit limit and a non-empty notification text, also without tables and charts', () => {
    fc.assert(
      fc.property(request, ranking, options, (lookup, influencers, answerOptions) => {
        const message = renderAnswer(lookup, { influencers }, answerOptions);
        expect(checkBlockKitLimits(message)).toEqual([]);
        expect(message.text.trim().length).toBeGreaterThan(0);
        expect(JSON.stringify(message)).not.toContain('undefined');
        const plain = withoutNewBlocks(message);
        expect(checkBlockKitLimits(plain)).toEqual([]);
        expect(
          plain.blocks.some((block) => ['data_table', 'data_visualization'].includes(block.type)),
        ).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps every limit with a hundred long names, every presentation and metric, compared or not', () => {
    const hundred = hundredLongNames;
    fc.assert(
      fc.property(
        request,
        hundred,
        fc.option(hundred, { nil: undefined }),
        presentations,
        fc.constantFrom(...metricNames),
        (lookup, influencers, previous, presentation, metric) => {
          const message = renderAnswer(
            { ...lookup, top: 100, metric },
            { influencers },
            {
              presentation,
              actions: true,
              shareable: true,
              ...(previous === undefined ? {} : { previous: { influencers: previous } }),
            },
          );
          expect(checkBlockKitLimits(message)).toEqual([]);
          expect(checkBlockKitLimits(withoutNewBlocks(message))).toEqual([]);
        },
      ),
      { numRuns: 30 },
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
