/**
 * What a new digest is checked against before it is stored, beyond its channel: each database
 * with the analytics service, and the digests already in the channel.
 */
import { DateTime } from 'luxon';
import type { AnalyticsApi } from '../analytics/types.ts';
import { nextRuns, runWindow } from '../digests/schedule.ts';
import { AccessDeniedError, UnknownDatabaseError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Digest } from '../model/digest.ts';
import type { DigestSpec } from '../parsing/digest.ts';
import { formatInstant } from '../time/format.ts';

/** How long creating a digest waits for the service to answer for its databases. */
export const databaseCheckDeadlineMs = 8_000;

/** The window of the check: a short one, so the service answers quickly. */
const checkWindowMs = 60 * 60_000;

/**
 * Asks the service about each database on its own (a one-hour, top-1 lookup), so the one it
 * does not know, or the app may not read, is named. Throws UnknownDatabaseError or
 * AccessDeniedError for the first such database, in the creator's order; resolves to false when
 * the service could not answer (unreachable, failing, refusing the app's credentials), since that
 * says nothing about the databases, and to true when every database was answered for.
 */
export async function checkDatabases(
  analytics: AnalyticsApi,
  databases: readonly string[],
  now: Date,
  logger: Logger,
): Promise<boolean> {
  const end = DateTime.fromJSDate(now, { zone: 'UTC' }).startOf('second');
  const start = end.minus({ milliseconds: checkWindowMs });
  const answers = await Promise.allSettled(
    databases.map((database) =>
      analytics.getInfluencers(
        {
          databases: [database],
          start: formatInstant(start),
          end: formatInstant(end),
          timezone: 'UTC',
          limit: 1,
        },
        { deadlineMs: databaseCheckDeadlineMs },
      ),
    ),
  );
  let checked = true;
  for (const [index, answer] of answers.entries()) {
    if (answer.status === 'fulfilled') continue;
    const database = databases[index] ?? '';
    const error: unknown = answer.reason;
    if (error instanceof UnknownDatabaseError) {
      throw error.database === undefined ? new UnknownDatabaseError(database) : error;
    }
    if (error instanceof AccessDeniedError) {
      throw error.database === undefined ? new AccessDeniedError(database) : error;
    }
    logger.warn({ err: error, database }, 'could not check a new digest’s database');
    checked = false;
  }
  return checked;
}

/** The same databases however they are written down: order and case do not matter. */
function databaseSet(databases: readonly string[]): string {
  return JSON.stringify([...new Set(databases.map((database) => database.toLowerCase()))].sort());
}

/** Runs the duplicate check compares: enough to tell schedules and windows apart. */
const runsCompared = 3;

/**
 * When and what a digest's next runs cover: its slots and their windows, in its zone. Two
 * digests whose schedules or windows are written differently (`cron "0 9 * * 1"` and `every
 * monday at 9am`; `last month` and the default on the 1st) but run and cover the same compare
 * equal; the default window and `last week` on a Monday do not.
 */
function effectiveRuns(each: Pick<DigestSpec, 'schedule' | 'window'>, now: Date): string[] {
  return nextRuns(each.schedule, now, runsCompared).map((slot) => {
    const window = runWindow(each, slot);
    return `${slot.toISOString()} ${window.start} ${window.end}`;
  });
}

/**
 * The digest of `digests` identical to the one `spec` describes at `now`: the same databases,
 * runs and windows (see `effectiveRuns`), top N, metric, people kept, ranking by followers and
 * condition for posting. How it shows its ranking does not count.
 */
export function identicalDigest(
  digests: readonly Digest[],
  spec: DigestSpec,
  now: Date,
): Digest | undefined {
  const key = (
    each: Pick<
      DigestSpec,
      | 'databases'
      | 'schedule'
      | 'window'
      | 'top'
      | 'metric'
      | 'postWhen'
      | 'account'
      | 'stakeholders'
      | 'orderBy'
    >,
  ) =>
    JSON.stringify([
      databaseSet(each.databases),
      effectiveRuns(each, now),
      each.top,
      each.metric ?? null,
      each.postWhen,
      each.account?.toLowerCase() ?? null,
      each.stakeholders === undefined
        ? null
        : [[...each.stakeholders.include].sort(), [...each.stakeholders.exclude].sort()],
      each.orderBy ?? null,
    ]);
  const wanted = key(spec);
  return digests.find((digest) => key(digest) === wanted);
}
