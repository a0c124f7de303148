/**
 * What a scheduled digest is. Plain data shared by the schedule math, the stores, the runner and
 * the Slack surface; nothing here does I/O or reads the clock.
 */
import { randomInt } from 'node:crypto';
import type { DigestCanvas } from './canvas.ts';
import type { ErrorCode } from './error-codes.ts';
import type { Metric } from './metrics.ts';
import type { Presentation } from './presentation.ts';
import type { StakeholderFilter } from './stakeholders.ts';

/**
 * How often a digest runs, as the person said it. It decides the default window: the time since
 * the previous slot for daily and weekly (a day, 7 days), the calendar months since the previous
 * slot's month for monthly (the previous calendar month, or two after a month without a run on
 * the 29th-31st), and the time since the previous slot for anything else ("custom", e.g. weekdays
 * or a raw cron). See `runWindow`.
 */
export type Cadence = 'daily' | 'weekly' | 'monthly' | 'custom';

/**
 * When a digest runs. Friendly phrases ("every monday at 9am") are translated to a five-field cron
 * expression by the command grammar; the words shown back to people are made from it when shown.
 */
export interface CronSchedule {
  readonly kind: 'cron';
  /** Five fields: minute hour day-of-month month day-of-week, evaluated in `zone`. */
  readonly expression: string;
  /** IANA zone (or `UTC`) the expression is read in; also the zone of every window and message. */
  readonly zone: string;
  readonly cadence: Cadence;
  /**
   * Every other week (`every other monday`, `every 2 weeks on monday`): the expression's slots run
   * only in every `everyWeeks`-th ISO week counted from `anchor`'s. Cron cannot say it.
   */
  readonly everyWeeks?: number;
  /** A date (`yyyy-MM-dd`, in `zone`) in a week the schedule runs: its first run's. */
  readonly anchor?: string;
}

export type DigestSchedule = CronSchedule;

/** What of a schedule decides its slots: its expression, zone, and weeks skipped. */
export type ScheduleSlots = Pick<CronSchedule, 'expression' | 'zone' | 'everyWeeks' | 'anchor'>;

/**
 * Whether a monthly schedule runs at the end of its months: on the last day (`L`) or on the 29th,
 * 30th or 31st. Such a run reports the month it falls in, which is nearly over, rather than the
 * previous one (see `runWindow`).
 */
export function runsAtMonthEnd(expression: string): boolean {
  const [, , dom, month, dow, ...rest] = expression.trim().split(/\s+/);
  if (month !== '*' || dow !== '*' || rest.length > 0) return false;
  return dom === 'L' || dom === '29' || dom === '30' || dom === '31';
}

export type WindowUnit = 'hours' | 'days' | 'weeks' | 'months';

/** The calendar periods a window can name: `last week`, `last month`, `last quarter`, `last year`. */
export type CalendarWindowUnit = 'week' | 'month' | 'quarter' | 'year';

/**
 * The period each run covers: the time since the previous scheduled slot (the default), a span
 * counted back from the slot (`last 24 hours`), or the last whole calendar period before the slot
 * in the digest's zone (`last week`: Monday to Sunday, the week just ended).
 */
export type DigestWindow =
  | { readonly kind: 'since-previous-run' }
  | { readonly kind: 'last'; readonly amount: number; readonly unit: WindowUnit }
  | { readonly kind: 'calendar'; readonly unit: CalendarWindowUnit };

export type DigestStatus = 'active' | 'paused';

/**
 * When a run posts: `always`; `changed`, only when the top N set or order differs from the
 * previous run's; `new`, only when someone enters the top N (a watch). A run that does not post
 * is recorded as skipped with why, and its ranking still becomes the one the next run compares
 * with.
 */
export type PostWhen = 'always' | 'changed' | 'new';

export type { Presentation } from './presentation.ts';

/**
 * How one slot ended. `unconfirmed`: another instance started posting it and has not confirmed;
 * it is never posted twice, so it may have been posted once or not at all (see the runner).
 */
export type RunOutcome = 'posted' | 'failed' | 'skipped' | 'unconfirmed';

/** One influencer's place in a run, kept to compare the next run against. */
export interface RankedAccount {
  readonly screenName: string;
  readonly rank: number;
}

/**
 * What the code of a failure alone does not say, as data: why a channel is unreachable
 * (`ChannelProblem`), or the block type Slack refused.
 */
export type ErrorDetail = string;

/**
 * Why a digest was paused, as data its lists and notices put into words when they are shown;
 * absent when a person paused it.
 */
export type PauseReason =
  | {
      readonly kind: 'failures';
      /** Failed runs in a row that paused it. */
      readonly failures: number;
      /** The last failure's code and detail. */
      readonly code: ErrorCode | 'unknown';
      readonly detail?: ErrorDetail;
    }
  /**
   * The app was uninstalled from the workspace, or its bot token revoked: the digest resumes by
   * itself once the app works there again.
   */
  | { readonly kind: WorkspaceGone };

/** How the app left a workspace: Slack's `app_uninstalled` or `tokens_revoked` event. */
export type WorkspaceGone = 'app_uninstalled' | 'tokens_revoked';

export const workspaceGoneKinds: readonly WorkspaceGone[] = ['app_uninstalled', 'tokens_revoked'];

/**
 * Why the app could not run any digest of a workspace: the failure concerns the whole app or team,
 * never one digest, so the runner holds the team's digests until it clears (see `Outage`).
 */
export type OutageCause =
  /** Slack refused the bot token (`invalid_auth`, `token_revoked`, `account_inactive`...). */
  | 'slack_token_rejected'
  /** Slack kept answering 429 beyond what the runner waits out. */
  | 'slack_rate_limited'
  /** Slack could not be reached, or was unavailable, through every retry. */
  | 'slack_unreachable'
  /** The analytics service refused the app's credentials or tokens. */
  | 'analytics_credentials_rejected'
  /** The analytics service kept rate limiting beyond its Retry-After within the deadline. */
  | 'analytics_rate_limited'
  /** The analytics service answered 5xx, timed out or could not be reached. */
  | 'analytics_unavailable';

/**
 * A workspace whose digests are on hold (an open circuit): due digests are not attempted, one is
 * tried now and then as a probe, and the first probe that meets no outage closes it.
 */
export interface Outage {
  readonly teamId: string;
  readonly cause: OutageCause;
  /** When the outage was first met. */
  readonly since: Date;
  /** No probe before this instant. */
  readonly probeAt: Date;
  /** Probes made so far: each one waits longer before the next. */
  readonly probes: number;
}

/** Why a slot was recorded without a post. */
export type SkipReason =
  /** The slot was older than the grace window when a runner came to it (the app was down). */
  | { readonly kind: 'missed' }
  /** The team's digests were on hold for an outage until the slot was too old to post. */
  | { readonly kind: 'outage'; readonly cause: OutageCause }
  /** `only when changed`: the top N was the same, in the same order, as at the previous run. */
  | { readonly kind: 'unchanged' }
  /** `only new`: no one entered the top N since the previous run. */
  | { readonly kind: 'no_newcomer' }
  /** `only new`, first run: the ranking was recorded, for the next runs to compare with. */
  | { readonly kind: 'first_ranking' }
  /** A watch of one account: it neither entered the top N nor left it since the previous run. */
  | { readonly kind: 'account_steady' };

export interface LastRun {
  /** The scheduled instant this run was for (or the moment of a manual run). */
  readonly slot: Date;
  readonly outcome: RunOutcome;
  /** When the outcome was recorded. */
  readonly at: Date;
  readonly errorCode?: ErrorCode | 'unknown';
  readonly errorDetail?: ErrorDetail;
  /** Set when `outcome` is `skipped`. */
  readonly skipReason?: SkipReason;
  /** Slack timestamp of the posted message. */
  readonly messageTs?: string;
}

export interface Digest {
  /** Six Crockford base32 characters, typed by people in `/influencers digest pause <id>`. */
  readonly id: string;
  readonly teamId: string;
  readonly channelId: string;
  readonly creatorId: string;
  /** Analytics `databases` items in the creator's order. */
  readonly databases: readonly string[];
  readonly schedule: DigestSchedule;
  readonly window: DigestWindow;
  /** How many influencers each run shows. */
  readonly top: number;
  /** The metric runs rank by (asked first of the service); the service's own order without it. */
  readonly metric?: Metric;
  readonly presentation: Presentation;
  readonly postWhen: PostWhen;
  /**
   * A watch of one account (`watch @DrFerreiraI in #hcsm`): its screen name, without the `@`. Such
   * a watch posts, to its creator's DM, only when that account enters or leaves the top N.
   */
  readonly account?: string;
  /**
   * Who the ranking keeps (`doctors`, `no pharma`): the service cannot filter by it, so each run
   * asks for its top 500 and keeps these people here, as a lookup does.
   */
  readonly stakeholders?: StakeholderFilter;
  /** `by followers`: the service's top 500 by the metric, ranked here by followers. */
  readonly orderBy?: 'followers';
  readonly status: DigestStatus;
  /** Why the digest was paused; absent when active or paused by hand. */
  readonly pauseReason?: PauseReason;
  readonly consecutiveFailures: number;
  /** The next scheduled slot still to be handled. */
  readonly nextRunAt: Date;
  readonly lastRun?: LastRun;
  /** The ranking the previous posted run showed, for rank changes. */
  readonly lastRanking?: readonly RankedAccount[];
  /** The channel canvas it keeps, rewritten after each post; absent when it never kept one. */
  readonly canvas?: DigestCanvas;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What the command layer supplies to create a digest; the store assigns the id and bookkeeping. */
export type NewDigest = Pick<
  Digest,
  'teamId' | 'channelId' | 'creatorId' | 'databases' | 'schedule' | 'window' | 'top' | 'nextRunAt'
> &
  Partial<
    Pick<Digest, 'postWhen' | 'metric' | 'presentation' | 'account' | 'stakeholders' | 'orderBy'>
  > & {
    /** Keep a channel canvas (`digest … canvas`). */
    readonly canvas?: boolean;
  };

/** Crockford base32: no I, L, O or U, so an id read aloud or retyped is hard to get wrong. */
const idAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const digestIdLength = 6;

/** A fresh random id: 32^6, about a billion, so the store's retry on a collision is rare. */
export function newDigestId(): string {
  let id = '';
  for (let i = 0; i < digestIdLength; i++) id += idAlphabet[randomInt(idAlphabet.length)];
  return id;
}

/**
 * Reads an id as a person typed it: case-insensitive, `O` for zero and `I`/`L` for one, as
 * Crockford base32 allows. Returns undefined when it cannot be an id, so the caller can say so.
 */
export function normalizeDigestId(text: string): string | undefined {
  const id = text.trim().toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
  if (id.length !== digestIdLength) return undefined;
  for (const char of id) if (!idAlphabet.includes(char)) return undefined;
  return id;
}
