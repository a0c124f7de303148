/**
 * The conversations' last questions (see `LastQuestionRepository`): one small table, the same
 * statements on both dialects, the request kept as JSON text since nothing queries into it.
 */
import type { LookupRequest } from '../../model/lookup.ts';
import type { LastQuestionRepository } from '../last-questions.ts';

/** What it needs of an adapter's executor (`SqlRunner`). */
interface Runner {
  query(
    sql: string,
    params?: readonly (string | number | Date | null)[],
  ): Promise<Record<string, unknown>[]>;
}

/** Expired questions are deleted at most this often per store, beside a write, not on a timer. */
const purgeEveryMs = 60_000;

export class SqlLastQuestions implements LastQuestionRepository {
  readonly #db: Runner;
  #lastPurge = Number.NEGATIVE_INFINITY;

  constructor(db: Runner) {
    this.#db = db;
  }

  async remember(
    conversation: string,
    request: LookupRequest,
    now: Date,
    ttlMs: number,
  ): Promise<void> {
    await this.#purge(now);
    await this.#db.query(
      `INSERT INTO last_questions (conversation, request, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (conversation) DO UPDATE SET request = excluded.request,
         expires_at = excluded.expires_at`,
      [conversation, JSON.stringify(request), new Date(now.getTime() + ttlMs)],
    );
  }

  async lastOf(conversation: string, now: Date): Promise<LookupRequest | undefined> {
    const [row] = await this.#db.query(
      'SELECT request FROM last_questions WHERE conversation = $1 AND expires_at > $2',
      [conversation, now],
    );
    return typeof row?.request === 'string'
      ? (JSON.parse(row.request) as LookupRequest)
      : undefined;
  }

  /** Deletes what expired, at most once per {@link purgeEveryMs}. */
  async #purge(now: Date): Promise<void> {
    if (now.getTime() - this.#lastPurge < purgeEveryMs) return;
    this.#lastPurge = now.getTime();
    await this.#db.query('DELETE FROM last_questions WHERE expires_at <= $1', [now]);
  }
}
