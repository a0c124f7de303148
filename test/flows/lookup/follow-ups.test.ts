import { describe, expect, it } from 'vitest';
import { FollowUps, followUpTtlMs } from '../../../src/flows/lookup/follow-ups.ts';
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
