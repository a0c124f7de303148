/**
 * The last question asked in each conversation outside agent threads (a DM), so that a follow-up
 * (`how about #lcsm?`, `same for last month`) keeps its window, filter and options on whichever
 * instance sharing the store answers it. A question is forgotten once its time runs out: a
 * follow-up means the question just asked, not one of last week.
 */
import type { LookupRequest } from '../model/lookup.ts';

/** The last questions of conversations, kept apart from the agent threads' memory. */
export interface LastQuestionRepository {
  /** Replaces the conversation's last question, until `now + ttlMs`. */
  remember(conversation: string, request: LookupRequest, now: Date, ttlMs: number): Promise<void>;
  /** The conversation's last question at `now`; undefined when none was asked or it expired. */
  lastOf(conversation: string, now: Date): Promise<LookupRequest | undefined>;
}
