/**
 * What a new digest is checked against before it is stored, beyond its channel: each database
 * with the analytics service (and a watch's account, against the last 30 days), and the digests
 * already in the same place, which an edited digest is checked against too.
 */
import { DateTime } from 'luxon';
import { serviceMaxLimit } from '../analytics/local-ranking.ts';
import type { AnalyticsApi } from '../analytics/types.ts';
import { runWindow } from '../digests/run-window.ts';
import { AccessDeniedError, UnknownDatabaseError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Digest } from '../model/digest.ts';
import { defaultMetric, metricsRankedBy } from '../model/metrics.ts';
import type { DigestSpec } from '../parsing/digest.ts';
import { formatInstant } from '../time/format.ts';
import { nextRuns } from '../time/schedule.ts';

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

/** How far back a watched account is looked for when its watch is created. */
export const accountLookbackDays = 30;

/**
 * Whether the service ranked `account` among its top 500 of `databases` over the last
 * {@link accountLookbackDays} days: `unseen` most often means a mistyped handle, which its watch
 * would follow in silence forever. `unchecked` when the service could not answer.
 */
export async function checkAccount(
  analytics: AnalyticsApi,
  watch: Pick<DigestSpec, 'databases' | 'metric'> & { readonly account: string },
  now: Date,
  logger: Logger,
): Promise<'seen' | 'unseen' | 'unchecked'> {
  const end = DateTime.fromJSDate(now, { zone: 'UTC' }).startOf('second');
  const start = end.minus({ days: accountLookbackDays });
  try {
    const answer = await analytics.getInfluencers(
      {
        databases: watch.databases,
        start: formatInstant(start),
        end: formatInstant(end),
        timezone: 'UTC',
        limit: serviceMaxLimit,
        metric: metricsRankedBy(watch.metric ?? defaultMetric),
      },
      { deadlineMs: databaseCheckDeadlineMs },
    );
    const wanted = handleKey(watch.account);
    return answer.influencers.some((person) => handleKey(person.screenName) === wanted)
      ? 'seen'
      : 'unseen';
  } catch (error) {
    logger.warn({ err: error }, 'could not check the account a new watch follows');
    return 'unchecked';
  }
}

/** A handle as the service may spell it: no `@`, any case. */
function handleKey(handle: string): string {
  return handle.replace(/^@+/, '').toLowerCase();
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

/** What the duplicate check compares; how a digest shows its ranking does not count. */
interface Compared
  extends Pick<DigestSpec, 'databases' | 'schedule' | 'window' | 'top' | 'postWhen'> {
  readonly metric?: DigestSpec['metric'] | undefined;
  readonly account?: DigestSpec['account'] | undefined;
  readonly stakeholders?: DigestSpec['stakeholders'] | undefined;
  readonly orderBy?: DigestSpec['orderBy'] | undefined;
}

/**
 * The same databases, runs and windows (see `effectiveRuns`), top N, metric, people kept,
 * ranking by followers and condition for posting, as one string.
 */
function comparedKey(each: Compared, now: Date): string {
  return JSON.stringify([
    databaseSet(each.databases),
    effectiveRuns(each, now),
    each.top,
    each.metric ?? null,
    each.postWhen,
    each.account?.toLowerCase() ?? null,
    peopleKept(each),
    each.orderBy ?? null,
  ]);
}

/** The people kept and left out, in any order. */
function peopleKept(each: Pick<Compared, 'stakeholders'>): string[][] | null {
  return each.stakeholders === undefined
    ? null
    : [[...each.stakeholders.include].sort(), [...each.stakeholders.exclude].sort()];
}

/** The digest of `digests` identical to the one `spec` describes at `now` (see `comparedKey`). */
export function identicalDigest(
  digests: readonly Digest[],
  spec: DigestSpec,
  now: Date,
): Digest | undefined {
  const wanted = comparedKey(spec, now);
  return digests.find((digest) => comparedKey(digest, now) === wanted);
}

/** A setting of the Edit form that the duplicate check compares, in the form's order. */
export type ComparedSetting = 'schedule' | 'window' | 'top' | 'zone' | 'metric' | 'posts' | 'who';

/** The digest an edit would repeat, and the compared settings the edit changed to get there. */
export interface EditDuplicate {
  readonly duplicate: Digest;
  readonly settings: readonly ComparedSetting[];
}

/**
 * The digest of `digests` (those of the same place) that `before` would repeat once edited into
 * `after`. The digest itself never counts, and an edit that leaves what the check compares as it
 * was is never refused: two digests alike from before stay editable (one may then be moved away).
 */
export function identicalAfterEdit(
  digests: readonly Digest[],
  before: Digest,
  after: Omit<Compared, 'databases' | 'account'>,
  now: Date,
): EditDuplicate | undefined {
  const edited: Compared = { ...after, databases: before.databases, account: before.account };
  const wanted = comparedKey(edited, now);
  if (wanted === comparedKey(before, now)) return undefined;
  const duplicate = digests.find(
    (digest) => digest.id !== before.id && comparedKey(digest, now) === wanted,
  );
  return duplicate === undefined
    ? undefined
    : { duplicate, settings: changedSettings(before, edited, now) };
}

/**
 * Which compared settings differ between `before` and `after`; the schedule, window and zone
 * only when the runs or windows they make differ (`mondays at 9` and `cron "0 9 * * 1"` do not).
 */
function changedSettings(before: Compared, after: Compared, now: Date): ComparedSetting[] {
  const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);
  const runsChanged = !same(effectiveRuns(before, now), effectiveRuns(after, now));
  const slots = ({ expression, everyWeeks, anchor }: Compared['schedule']) => [
    expression,
    everyWeeks,
    anchor,
  ];
  const changed: [ComparedSetting, boolean][] = [
    ['schedule', runsChanged && !same(slots(before.schedule), slots(after.schedule))],
    ['window', runsChanged && !same(before.window, after.window)],
    ['top', before.top !== after.top],
    ['zone', runsChanged && before.schedule.zone !== after.schedule.zone],
    ['metric', !same(before.metric, after.metric) || !same(before.orderBy, after.orderBy)],
    ['posts', before.postWhen !== after.postWhen],
    ['who', !same(peopleKept(before), peopleKept(after))],
  ];
  return changed.flatMap(([setting, differs]) => (differs ? [setting] : []));
}

/** A value as JSON whatever the order of its objects' keys, as a store may give them back. */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, each: unknown) =>
    each !== null && typeof each === 'object' && !Array.isArray(each)
      ? Object.fromEntries(Object.entries(each).sort(([a], [b]) => a.localeCompare(b)))
      : each,
  );
}
