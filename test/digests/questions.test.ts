import { describe, expect, it } from 'vitest';
import type { InfluencersQuery } from '../../src/analytics/types.ts';
import { Questions } from '../../src/digests/questions.ts';
import { FakeAnalytics, FakeClock } from './helpers.ts';

function question(databases: string): InfluencersQuery {
  return {
    databases: [databases],
    start: '2026-06-01T09:00:00+01:00',
    end: '2026-06-08T09:00:00+01:00',
    timezone: 'Europe/London',
    limit: 5,
  };
}

function questions(analytics: FakeAnalytics, answersKept: number): Questions {
  return new Questions({
    analytics,
    clock: new FakeClock('2026-06-08T08:00:00Z'),
    retry: { attempts: 1, backoffMs: 0 },
    concurrency: 4,
    answersKept,
    onAnswer: () => undefined,
  });
}

describe('Questions', () => {
  it('asks a question once per round while its answer is kept', async () => {
    const analytics = new FakeAnalytics();
    const counts = { analyticsCalls: 0 };
    const ask = questions(analytics, 2).round(counts);
    await Promise.all([ask(question('#hcsm')), ask(question('#hcsm')), ask(question('#hcsm'))]);
    await ask(question('#hcsm'));
    expect(counts.analyticsCalls).toBe(1);
    expect(analytics.calls).toHaveLength(1);
  });

  it('keeps at most `answersKept` answers in a round, dropping the least recently asked', async () => {
    const analytics = new FakeAnalytics();
    const counts = { analyticsCalls: 0 };
    const ask = questions(analytics, 2).round(counts);
    for (const databases of ['#a', '#b', '#c']) await ask(question(databases));
    expect(counts.analyticsCalls).toBe(3);
    // #b and #c are kept; #a was dropped when #c came, so it costs a second call.
    await ask(question('#c'));
    await ask(question('#b'));
    expect(counts.analyticsCalls).toBe(3);
    await ask(question('#a'));
    expect(counts.analyticsCalls).toBe(4);
    // Asking #a again dropped #c, the least recently asked of the two kept before it.
    await ask(question('#b'));
    expect(counts.analyticsCalls).toBe(4);
    await ask(question('#c'));
    expect(counts.analyticsCalls).toBe(5);
    expect(analytics.calls.map((call) => call.databases[0])).toEqual([
      '#a',
      '#b',
      '#c',
      '#a',
      '#c',
    ]);
  });

  it('shares nothing between rounds', async () => {
    const analytics = new FakeAnalytics();
    const counts = { analyticsCalls: 0 };
    const asker = questions(analytics, 10);
    await asker.round(counts)(question('#hcsm'));
    await asker.round(counts)(question('#hcsm'));
    expect(counts.analyticsCalls).toBe(2);
  });
});
