/**
 * How both adapters read rows into digests and delivery records, and the few values they keep as
 * short codes in text columns rather than words: a pause reason (`failures:3:channel_unreachable:
 * archived`, read back as a `PauseReason`), a failure's code with its detail
 * (`channel_unreachable:archived`) and, in the same column of a skipped run, why it was skipped
 * (`missed`, `outage:analytics_unavailable`). The renderer words them when they are shown, so
 * changing the words never touches stored rows.
 */

import type { ErrorCode } from '../../errors.ts';
import {
  canvasKinds,
  canvasProblems,
  type DigestCanvas,
  planCanvasProblems,
} from '../../model/canvas.ts';
import { defined } from '../../model/defined.ts';
import {
  type Digest,
  type ErrorDetail,
  type LastRun,
  type Outage,
  type OutageCause,
  type PauseReason,
  type RankedAccount,
  type SkipReason,
  workspaceGoneKinds,
} from '../../model/digest.ts';
import type { DigestRun, DigestRunDetails } from '../../model/digest-run.ts';
import type { Delivery } from '../runs.ts';
import type { SqlRow } from './executor.ts';

export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  return new Date(Number(value));
}

function optionalDate(value: unknown): Date | undefined {
  return value === null || value === undefined ? undefined : toDate(value);
}

function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

function optionalString(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

/** A failure as stored: its code, then `:` and its detail when it has one. */
export interface StoredProblem {
  readonly errorCode: ErrorCode | 'unknown';
  readonly errorDetail?: ErrorDetail;
}

export function encodeProblem(problem: {
  readonly errorCode?: ErrorCode | 'unknown';
  readonly errorDetail?: ErrorDetail;
}): string | null {
  if (problem.errorCode === undefined) return null;
  return problem.errorDetail === undefined
    ? problem.errorCode
    : `${problem.errorCode}:${problem.errorDetail}`;
}

export function decodeProblem(value: unknown): StoredProblem | undefined {
  const text = optionalString(value);
  if (text === undefined || text === '') return undefined;
  const colon = text.indexOf(':');
  if (colon === -1) return { errorCode: text as ErrorCode };
  const errorDetail = text.slice(colon + 1);
  return {
    errorCode: text.slice(0, colon) as ErrorCode,
    ...(errorDetail === '' ? {} : { errorDetail }),
  };
}

/** `failures:<count>:<code>[:<detail>]`, `app_uninstalled`, `tokens_revoked`. */
export function encodePauseReason(reason: PauseReason | undefined): string | null {
  if (reason === undefined) return null;
  if (reason.kind !== 'failures') return reason.kind;
  return `failures:${reason.failures}:${encodeProblem({ errorCode: reason.code, ...defined({ errorDetail: reason.detail }) })}`;
}

/** Anything unreadable (a newer version's kind) reads as failures of unknown cause. */
export function decodePauseReason(value: unknown): PauseReason | undefined {
  const text = optionalString(value);
  if (text === undefined || text === '') return undefined;
  const gone = workspaceGoneKinds.find((kind) => kind === text);
  if (gone !== undefined) return { kind: gone };
  const [kind, count, ...rest] = text.split(':');
  const problem = decodeProblem(rest.join(':'));
  const failures = Number(count);
  return {
    kind: 'failures',
    failures: kind === 'failures' && Number.isInteger(failures) ? failures : 0,
    code: kind === 'failures' && problem ? problem.errorCode : 'unknown',
    ...(kind === 'failures' && problem?.errorDetail ? { detail: problem.errorDetail } : {}),
  };
}

/** `missed`, `outage:<cause>`, `unchanged`, `no_newcomer`, `first_ranking`, `account_steady`. */
export function encodeSkipReason(reason: SkipReason): string {
  return reason.kind === 'outage' ? `outage:${reason.cause}` : reason.kind;
}

/** A skipped slot's reason; none stored (earlier versions) means missed. */
export function decodeSkipReason(value: unknown): SkipReason {
  const text = optionalString(value) ?? 'missed';
  const [kind, detail] = text.split(':');
  switch (kind) {
    case 'outage':
      return detail === undefined
        ? { kind: 'missed' }
        : { kind: 'outage', cause: detail as OutageCause };
    case 'unchanged':
    case 'no_newcomer':
    case 'first_ranking':
    case 'account_steady':
      return { kind };
    default:
      return { kind: 'missed' };
  }
}

/** A skipped run keeps its reason where a failed one keeps its code. */
function runCodes(
  outcome: unknown,
  value: unknown,
): Partial<StoredProblem> & { skipReason?: SkipReason } {
  return outcome === 'skipped'
    ? { skipReason: decodeSkipReason(value) }
    : { ...decodeProblem(value) };
}

export function rowToOutage(row: SqlRow): Outage {
  return {
    teamId: String(row.team_id),
    cause: String(row.cause) as OutageCause,
    since: toDate(row.since),
    probeAt: toDate(row.probe_at),
    probes: Number(row.probes),
  };
}

/** The digest's canvas as its row keeps it; absent when it keeps none and never had one. */
export function rowToCanvas(row: SqlRow): DigestCanvas | undefined {
  const enabled = Number(row.canvas ?? 0) === 1;
  const id = typeof row.canvas_id === 'string' && row.canvas_id !== '' ? row.canvas_id : undefined;
  if (!enabled && id === undefined) return undefined;
  const kind = canvasKinds.find((known) => known === row.canvas_kind) ?? 'channel';
  const problem = canvasProblems.find((known) => known === row.canvas_problem);
  const told = String(row.canvas_told ?? '')
    .split(' ')
    .flatMap((word) => canvasProblems.filter((known) => known === word));
  // The creation claim's column also holds a plan's refusal; only then is it a hold on writes.
  const heldUntil =
    problem !== undefined && planCanvasProblems.has(problem)
      ? optionalDate(row.canvas_creating_until)
      : undefined;
  return {
    enabled,
    ...(id === undefined ? {} : { canvas: { id, kind } }),
    ...(problem === undefined ? {} : { problem }),
    told,
    ...(heldUntil === undefined ? {} : { heldUntil }),
  };
}

export function rowToDigest(row: SqlRow): Digest {
  const lastRunSlot = optionalDate(row.last_run_slot);
  let lastRun: LastRun | undefined;
  if (lastRunSlot) {
    const messageTs = optionalString(row.last_run_ts);
    lastRun = {
      slot: lastRunSlot,
      outcome: String(row.last_run_outcome) as LastRun['outcome'],
      at: toDate(row.last_run_at),
      ...runCodes(row.last_run_outcome, row.last_run_error),
      ...(messageTs ? { messageTs } : {}),
    };
  }
  const pauseReason = decodePauseReason(row.paused_reason);
  const lastRanking =
    row.last_ranking === null || row.last_ranking === undefined
      ? undefined
      : fromJson<RankedAccount[]>(row.last_ranking);
  const canvas = rowToCanvas(row);
  return {
    id: String(row.id),
    teamId: String(row.team_id),
    channelId: String(row.channel_id),
    creatorId: String(row.creator_id),
    databases: fromJson<string[]>(row.databases),
    schedule: fromJson<Digest['schedule']>(row.schedule),
    window: fromJson<Digest['window']>(row.run_window),
    top: Number(row.top),
    ...defined({ metric: optionalString(row.metric) as Digest['metric'] }),
    presentation: (optionalString(row.presentation) ?? 'list') as Digest['presentation'],
    postWhen: (optionalString(row.post_when) ?? 'always') as Digest['postWhen'],
    ...defined({ account: optionalString(row.account) }),
    ...(row.stakeholders === null || row.stakeholders === undefined
      ? {}
      : { stakeholders: fromJson<NonNullable<Digest['stakeholders']>>(row.stakeholders) }),
    ...(row.order_by === 'followers' ? { orderBy: 'followers' as const } : {}),
    status: String(row.status) as Digest['status'],
    ...(pauseReason ? { pauseReason } : {}),
    consecutiveFailures: Number(row.consecutive_failures),
    nextRunAt: toDate(row.next_run_at),
    ...(lastRun ? { lastRun } : {}),
    ...(lastRanking ? { lastRanking } : {}),
    ...defined({ canvas }),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

export function rowToDelivery(row: SqlRow): Delivery {
  const finishedAt = optionalDate(row.finished_at);
  const messageTs = optionalString(row.message_ts);
  const skippedCount = row.skipped_count === null ? undefined : Number(row.skipped_count);
  const noticedAt = optionalDate(row.noticed_at);
  const repostBy = optionalString(row.repost_by);
  return {
    digestId: String(row.digest_id),
    slot: toDate(row.slot),
    status: String(row.status) as Delivery['status'],
    owner: String(row.owner),
    startedAt: toDate(row.started_at),
    ...(finishedAt ? { finishedAt } : {}),
    ...(messageTs ? { messageTs } : {}),
    ...runCodes(row.status, row.error_code),
    ...defined({ skippedCount, noticedAt, repostBy }),
  };
}

/** A run as `digest_runs` keeps it; a run without details (a missed slot) has an empty top N. */
export function rowToRun(row: SqlRow): DigestRun {
  const outcome = String(row.outcome) as DigestRun['outcome'];
  const details =
    row.run === null || row.run === undefined ? undefined : fromJson<DigestRunDetails>(row.run);
  return {
    digestId: String(row.digest_id),
    slot: toDate(row.slot),
    at: toDate(row.recorded_at),
    outcome,
    ...(outcome === 'posted' ? {} : runCodes(outcome, row.reason)),
    ...defined({ window: details?.window, metric: details?.metric }),
    entries: details?.entries ?? [],
    entered: details?.entered ?? [],
    left: details?.left ?? [],
  };
}

/** New ids drawn before giving up: a clash among the ids' billions of values is already rare. */
const maxIdAttempts = 8;

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  return code === '23505' || /UNIQUE constraint failed/.test(message);
}

/**
 * Runs `insert` with a new id from `newId`, drawing another when the id is taken (a unique
 * violation), and returns the row it inserted.
 */
export async function insertWithFreshId(
  newId: () => string,
  insert: (id: string) => Promise<readonly SqlRow[]>,
): Promise<SqlRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      const row = (await insert(newId()))[0];
      // Not an AppError: an invariant (RETURNING gives the row back); a bug if broken.
      if (!row) throw new Error('INSERT ... RETURNING returned no row');
      return row;
    } catch (error) {
      if (attempt >= maxIdAttempts || !isUniqueViolation(error)) throw error;
    }
  }
}
