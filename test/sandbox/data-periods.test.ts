import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { metricNames } from '../../src/model/metrics.ts';
import { rankChanges } from '../../src/model/rank-changes.ts';
import { type CataloguePredicate, demoCatalogue } from '../../src/sandbox/catalogue.ts';
import {
  type InfluencerQuery,
  type SandboxMetric,
  topInfluencers,
  type WireInfluencer,
} from '../../src/sandbox/data.ts';
import { population } from '../../src/sandbox/population.ts';

const now = new Date('2026-12-01T10:20:30Z');
const dayMs = 86_400_000;
const byName = (name: string): CataloguePredicate => {
  const predicate = demoCatalogue.predicates.find((candidate) => candidate.name === name);
  if (predicate === undefined) throw new Error(`no ${name}`);
  return predicate;
};
const week = (start: string): Pick<InfluencerQuery, 'start' | 'end'> => ({
  start: new Date(start),
  end: new Date(new Date(start).getTime() + 7 * dayMs),
});
const everyone = {
  now,
  metrics: ['mentions'] as const,
  limit: population.length,
};
const names = (list: readonly WireInfluencer[]) => list.map((item) => item.user.screen_name);
const value = (item: WireInfluencer, metric: SandboxMetric) =>
  metric === 'hsg_score' ? item.user.hsg_score : item[metric];
const counted = ['mentions', 'tweets', 'retweets', 'replies', 'impressions', 'urls'] as const;

describe('sandbox influencers over time', () => {
  it('ranks the same people in the same order for windows a few seconds apart', () => {
    const predicates = [byName('#hcsm')];
    const at = (start: string, end: string) =>
      topInfluencers({ ...everyone, predicates, start: new Date(start), end: new Date(end) });
    const calendar = at('2026-03-02T00:00:00Z', '2026-03-09T00:00:00Z');
    expect(calendar.length).toBeGreaterThan(500);
    expect(at('2026-03-02T00:00:04Z', '2026-03-09T00:00:09Z')).toEqual(calendar);
    expect(at('2026-03-01T23:59:31Z', '2026-03-08T23:59:58Z')).toEqual(calendar);
    // A rolling window read a minute later, as a digest run twice in a row asks for it.
    const rolling = at('2026-03-02T09:00:10Z', '2026-03-09T09:00:10Z');
    expect(at('2026-03-02T09:01:10Z', '2026-03-09T09:01:10Z')).toEqual(rolling);
    expect(names(rolling)).not.toEqual(names(calendar));
  });

  it('never shrinks a total as the window grows, and grows the whole conversation', () => {
    const end = new Date('2026-06-10T15:00:00Z');
    const predicates = [byName('#bcsm'), byName('#lcsm')];
    const lengths = [1 / 24, 1, 7, 30, 90];
    const windows = lengths.map((days) =>
      topInfluencers({
        ...everyone,
        predicates,
        start: new Date(end.getTime() - days * dayMs),
        end,
      }),
    );
    const total = (list: readonly WireInfluencer[]) =>
      list.reduce((sum, item) => sum + item.mentions, 0);
    for (let index = 1; index < windows.length; index++) {
      const shorter = windows[index - 1] ?? [];
      const longer = new Map((windows[index] ?? []).map((item) => [item.user.screen_name, item]));
      expect(total(windows[index] ?? [])).toBeGreaterThan(total(shorter) * 2);
      for (const item of shorter) {
        const grown = longer.get(item.user.screen_name);
        expect(grown).toBeDefined();
        for (const name of counted) expect(grown?.[name]).toBeGreaterThanOrEqual(item[name]);
      }
    }
  });

  it("adds up a window's days: a fortnight is the sum of its fourteen days", () => {
    const predicates = [byName('#hcsm'), byName('#meded')];
    const start = new Date('2026-04-13T00:00:00Z');
    const fortnight = topInfluencers({
      ...everyone,
      predicates,
      start,
      end: new Date(start.getTime() + 14 * dayMs),
    });
    const sums = new Map<string, number[]>();
    for (let day = 0; day < 14; day++) {
      const one = topInfluencers({
        ...everyone,
        predicates,
        start: new Date(start.getTime() + day * dayMs),
        end: new Date(start.getTime() + (day + 1) * dayMs),
      });
      for (const item of one) {
        const sum = sums.get(item.user.screen_name) ?? counted.map(() => 0);
        sums.set(
          item.user.screen_name,
          counted.map((name, column) => (sum[column] ?? 0) + item[name]),
        );
      }
    }
    expect(fortnight.length).toBe(sums.size);
    for (const item of fortnight) {
      expect(counted.map((name) => item[name])).toEqual(sums.get(item.user.screen_name));
    }
  });

  it.each(['#hcsm', '#bcsm'])(
    'gives %s a previous week with some new entrants, movers and drop-outs, and most of the top 10 kept',
    (name) => {
      const top10 = (start: string) =>
        topInfluencers({ ...everyone, limit: 10, predicates: [byName(name)], ...week(start) }).map(
          (item) => ({ screenName: item.user.screen_name, rank: item.symplurrank }),
        );
      const mondays = ['2026-02-02', '2026-02-09', '2026-02-16', '2026-02-23', '2026-03-02'];
      for (let index = 1; index < mondays.length; index++) {
        const previous = top10(`${mondays[index - 1]}T00:00:00Z`);
        const current = top10(`${mondays[index]}T00:00:00Z`);
        const changes = rankChanges(previous, current);
        expect(changes.newEntrants.length).toBeGreaterThan(0);
        expect(changes.droppedOut.length).toBeGreaterThan(0);
        expect(changes.movedUp.length + changes.movedDown.length).toBeGreaterThan(0);
        expect(changes.newEntrants.length).toBeLessThanOrEqual(4);
      }
    },
  );

  it.each(['#hcsm', '#bcsm'])(
    'has %s accounts in the top 100 that were silent a season earlier, and the reverse',
    (name) => {
      const predicates = [byName(name)];
      const everyoneIn = (start: string) =>
        names(topInfluencers({ ...everyone, predicates, ...week(start) }));
      const winter = everyoneIn('2026-01-05T00:00:00Z');
      const spring = everyoneIn('2026-04-06T00:00:00Z');
      const arrived = spring.slice(0, 100).filter((screenName) => !winter.includes(screenName));
      const faded = winter.slice(0, 100).filter((screenName) => !spring.includes(screenName));
      expect(arrived.length).toBeGreaterThan(0);
      expect(faded.length).toBeGreaterThan(0);
      expect(arrived.length + faded.length).toBeLessThan(30);
    },
  );

  it('gives the same answers from a fresh start of the sandbox', async () => {
    const query: InfluencerQuery = {
      predicates: [byName('#pharma'), byName('clinical trials')],
      start: new Date('2026-05-03T07:00:00Z'),
      end: new Date('2026-07-29T19:00:00Z'),
      now,
      metrics: ['retweets', 'mentions'],
      limit: 500,
    };
    const first = topInfluencers(query);
    vi.resetModules();
    const fresh = (await import('../../src/sandbox/data.ts')).topInfluencers;
    expect(fresh).not.toBe(topInfluencers);
    expect(fresh(query)).toEqual(first);
  });

  it('answers any window and set of databases sorted by the first metric, the same way every time', () => {
    const predicates = fc.uniqueArray(fc.constantFrom(...demoCatalogue.predicates), {
      minLength: 1,
      maxLength: 4,
    });
    const metrics = fc.uniqueArray(fc.constantFrom(...metricNames), {
      minLength: 1,
      maxLength: 3,
    });
    const hour = 3_600_000;
    const firstHour = Date.UTC(2025, 6, 1) / hour;
    const lastHour = Date.UTC(2026, 10, 1) / hour;
    fc.assert(
      fc.property(
        predicates,
        metrics,
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: firstHour, max: lastHour }),
        fc.integer({ min: 1, max: 120 * 24 }),
        fc.integer({ min: -1700, max: 1700 }),
        fc.integer({ min: -1700, max: 1700 }),
        (chosen, order, limit, startHour, hours, startSeconds, endSeconds) => {
          const query = {
            predicates: chosen,
            metrics: order,
            limit,
            now,
            start: new Date(startHour * hour),
            end: new Date((startHour + hours) * hour),
          };
          const answer = topInfluencers(query);
          expect(answer.length).toBeLessThanOrEqual(limit);
          expect(answer.map((item) => item.symplurrank)).toEqual(
            answer.map((_, index) => index + 1),
          );
          const first = order[0] ?? 'mentions';
          for (let index = 1; index < answer.length; index++) {
            const above = answer[index - 1] as WireInfluencer;
            expect(value(above, first)).toBeGreaterThanOrEqual(
              value(answer[index] as WireInfluencer, first),
            );
          }
          const shifted = topInfluencers({
            ...query,
            start: new Date(query.start.getTime() + startSeconds * 1000),
            end: new Date(query.end.getTime() + endSeconds * 1000),
          });
          expect(shifted).toEqual(answer);
          const fuller = topInfluencers({ ...query, limit: 500 });
          expect(fuller.slice(0, limit)).toEqual(answer);
        },
      ),
      { numRuns: 60 },
    );
  });
});
