import { describe, expect, it } from 'vitest';
import { FollowUps, followUpTtlMs } from '../../../src/flows/lookup/follow-ups.ts';
import { LookupPlanner } from '../../../src/flows/lookup/plan.ts';
import { silentLogger } from '../../../src/logger.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { LastQuestionRepository } from '../../../src/store/last-questions.ts';
import { openDatabase } from '../../../src/store/open.ts';

const start = new Date('2026-11-28T04:42:00Z');
const question: LookupRequest = {
  databases: ['#bcsm'],
  start: '2026-10-01T00:00:00-04:00',
  end: '2026-11-01T00:00:00-04:00',
  timezone: 'America/New_York',
  top: 10,
};

function followUps(questions: () => LastQuestionRepository | undefined, clock: { at: Date }) {
  return new FollowUps({ questions, logger: silentLogger, now: () => clock.at });
}

describe('FollowUps', () => {
  it('keeps a DM’s last question for half an hour, in the store every instance reads', async () => {
    const store = await openDatabase({ sqlitePath: ':memory:' });
    try {
      const clock = { at: start };
      await followUps(() => store.lastQuestions, clock).remember('D1', question);
      const other = followUps(() => store.lastQuestions, clock);
      clock.at = new Date(start.getTime() + followUpTtlMs - 1);
      expect(await other.previous('D1')).toEqual(question);
      expect(await other.previous('D2')).toBeUndefined();
      clock.at = new Date(start.getTime() + followUpTtlMs);
      expect(await other.previous('D1')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('remembers on its own while the store fails or is not open, for as long', async () => {
    const clock = { at: start };
    const failing: LastQuestionRepository = {
      remember: () => Promise.reject(new Error('database unavailable')),
      lastOf: () => Promise.reject(new Error('database unavailable')),
    };
    for (const questions of [() => failing, () => undefined]) {
      clock.at = start;
      const memory = followUps(questions, clock);
      await memory.remember('D1', question);
      expect(await memory.previous('D1')).toEqual(question);
      clock.at = new Date(start.getTime() + followUpTtlMs);
      expect(await memory.previous('D1')).toBeUndefined();
    }
  });
});

/**
 * Follow-ups of the newcomer corpus (batch H, a New York DM at 2026-11-28 04:42 UTC): the DM's
 * last question remembered, then the follow-up planned with it, as the DM listener does.
 */
describe('newcomer follow-ups in a DM', () => {
  const sent = new Date('2026-11-28T04:42:25Z');
  const zone = 'America/New_York';
  const planner = new LookupPlanner({ logger: silentLogger, now: () => sent });

  async function followUp(asked: string, then: string): Promise<LookupRequest> {
    const memory = followUps(() => undefined, { at: sent });
    const first = planner.plan(asked, { zone });
    if (first.kind !== 'lookup') throw new Error(`${asked}: ${first.kind}`);
    await memory.remember('D1', first.request);
    const previous = await memory.previous('D1');
    const plan = planner.plan(then, { zone, ...(previous === undefined ? {} : { previous }) });
    if (plan.kind !== 'lookup') throw new Error(`${then}: ${plan.kind}`);
    return plan.request;
  }

  it('H-030 how about #lcsm? keeps the window, who is kept and the ranking', async () => {
    const request = await followUp(
      'who were the top doctors in #bcsm last month by followers?',
      'how about #lcsm?',
    );
    expect(request).toMatchObject({
      databases: ['#lcsm'],
      start: '2026-10-01T00:00:00-04:00',
      end: '2026-11-01T00:00:00-04:00',
      stakeholders: { include: ['Doctor'], exclude: [] },
      orderBy: 'followers',
    });
  });

  it('H-031 same for #meded asks the previous question for #meded', async () => {
    const request = await followUp('who drove #hcsm last week by retweets?', 'same for #meded');
    expect(request).toMatchObject({
      databases: ['#meded'],
      start: '2026-11-16T00:00:00-05:00',
      end: '2026-11-23T00:00:00-05:00',
      metric: 'retweets',
    });
  });
});
