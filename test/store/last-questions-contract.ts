/**
 * The part of the Database contract about each DM's last question, which a follow-up keeps the
 * window and options of. `database.test.ts` runs it per adapter, beside `storeContract`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LookupRequest } from '../../src/model/lookup.ts';
import type { LastQuestionRepository } from '../../src/store/last-questions.ts';
import type { StoreFixture } from './store-contract.ts';

const now = new Date('2026-06-08T08:00:30Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const ttl = 30 * 60_000;
const question: LookupRequest = {
  databases: ['#bcsm'],
  start: '2026-05-01T00:00:00-04:00',
  end: '2026-06-01T00:00:00-04:00',
  timezone: 'America/New_York',
  top: 10,
  orderBy: 'followers',
  stakeholders: { include: ['Doctor'], exclude: [] },
};

export function lastQuestionsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`Database contract, last questions: ${name}`, () => {
    let fixture: StoreFixture;
    let questions: LastQuestionRepository;

    beforeEach(async () => {
      fixture = await open();
      questions = fixture.store.lastQuestions;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('keeps a conversation’s last question until its time runs out, the latest replacing it', async () => {
      expect(await questions.lastOf('D1', now)).toBeUndefined();
      await questions.remember('D1', question, now, ttl);
      expect(await questions.lastOf('D1', later(ttl - 1))).toEqual(question);
      expect(await questions.lastOf('D1', later(ttl))).toBeUndefined();
      expect(await questions.lastOf('D2', now)).toBeUndefined();
      const next = { ...question, databases: ['#lcsm'] };
      await questions.remember('D1', next, later(ttl / 2), ttl);
      expect(await questions.lastOf('D1', later(ttl))).toEqual(next);
    });

    it('forgets expired questions and keeps working after they are purged', async () => {
      await questions.remember('D1', question, now, 1_000);
      const much = later(2 * 60_000);
      await questions.remember('D2', question, much, ttl);
      expect(await questions.lastOf('D1', much)).toBeUndefined();
      await questions.remember('D1', question, much, ttl);
      expect(await questions.lastOf('D1', much)).toEqual(question);
    });

    it('shows a question remembered on one connection to another', async () => {
      if (!fixture.openSibling) return;
      const other = (await fixture.openSibling()).lastQuestions;
      await questions.remember('D1', question, now, ttl);
      expect(await other.lastOf('D1', now)).toEqual(question);
    });
  });
}
