/**
 * What both dialects keep about slots whose post was never confirmed (left `posting`): whether
 * the digest's creator was told, and who chose to post it again. Each step is one statement that
 * decides on the row itself, so of several instances exactly one tells, and of several presses
 * exactly one posts.
 */
import { DigestNotFoundError } from '../../errors.ts';
import type { BeginDeliveryResult, UnconfirmedPost } from '../runs.ts';
import type { SqlRunner } from './executor.ts';
import { rowToDelivery, rowToDigest, toDate } from './rows.ts';

export class UnconfirmedRecords {
  readonly #db: SqlRunner;

  constructor(db: SqlRunner) {
    this.#db = db;
  }

  async take(now: Date, startedBefore: Date): Promise<UnconfirmedPost[]> {
    const taken = await this.#db.query(
      `UPDATE digest_deliveries SET noticed_at = $1
       WHERE status = 'posting' AND noticed_at IS NULL AND started_at <= $2
         AND NOT EXISTS (
           SELECT 1 FROM digests d
           WHERE d.id = digest_deliveries.digest_id
             AND d.lease_owner = digest_deliveries.owner AND d.lease_until > $1)
       RETURNING digest_id, slot, started_at`,
      [now, startedBefore],
    );
    const posts: UnconfirmedPost[] = [];
    for (const row of taken) {
      const [digest] = await this.#db.query('SELECT * FROM digests WHERE id = $1', [
        String(row.digest_id),
      ]);
      if (digest === undefined) continue;
      posts.push({
        digest: rowToDigest(digest),
        slot: toDate(row.slot),
        startedAt: toDate(row.started_at),
      });
    }
    return posts.sort(
      (a, b) => a.slot.getTime() - b.slot.getTime() || a.digest.id.localeCompare(b.digest.id),
    );
  }

  async untake(digestId: string, slot: Date): Promise<void> {
    await this.#db.query(
      `UPDATE digest_deliveries SET noticed_at = NULL
       WHERE digest_id = $1 AND slot = $2 AND status = 'posting' AND repost_by IS NULL`,
      [digestId, slot],
    );
  }

  async retake(
    digestId: string,
    slot: Date,
    owner: string,
    by: string,
    now: Date,
  ): Promise<BeginDeliveryResult> {
    const taken = await this.#db.query(
      `UPDATE digest_deliveries SET status = 'posting', owner = $3, started_at = $4,
         finished_at = NULL, error_code = NULL, repost_by = $5
       WHERE digest_id = $1 AND slot = $2
         AND ((status = 'posting' AND noticed_at IS NOT NULL AND repost_by IS NULL)
           OR (status = 'failed' AND repost_by IS NOT NULL))
       RETURNING digest_id`,
      [digestId, slot, owner, now, by],
    );
    if (taken.length > 0) return { kind: 'started' };
    const [record] = await this.#db.query(
      'SELECT * FROM digest_deliveries WHERE digest_id = $1 AND slot = $2',
      [digestId, slot],
    );
    if (record === undefined) throw new DigestNotFoundError(digestId);
    return { kind: 'already', delivery: rowToDelivery(record) };
  }
}
