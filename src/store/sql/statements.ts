/**
 * The SQL both dialects share beyond the repositories' own statements: which due digests a claim
 * may take, and what a completion writes to a digest and when it may overwrite a delivery record.
 * PostgreSQL's set-based statements are built from the same pieces as the single ones.
 */

import type { ClaimOptions } from '../digests.ts';
import { runsKept, type SlotCompletion } from '../runs.ts';
import type { SqlScalar, SqlValue } from './executor.ts';
import { encodePauseReason, encodeProblem, encodeSkipReason } from './rows.ts';

/**
 * The conditions a due digest meets to be claimed, read with the parameters of `claimParams`: `$3`
 * now, `$5` the instant the slot must be at or before, `$6` the workspace when the claim is for
 * one. Without a workspace, digests of workspaces with an open outage are left alone. Each form
 * is a plain conjunction (behind an OR the outage test was a subquery run for every due row, and
 * every due row was sorted on each claim), so the adapters walk `digests_claim` in the claim's
 * order and stop once the batch is full, testing each row against the few open outages by key.
 */
export function claimableSql(options: ClaimOptions): string {
  const workspace =
    options.teamId === undefined
      ? 'team_id NOT IN (SELECT team_id FROM digest_outages)'
      : 'team_id = $6';
  return `status = 'active' AND next_run_at <= $5
  AND (lease_until IS NULL OR lease_until <= $3)
  AND ${workspace}`;
}

/** The parameters of a claim statement: `$1` owner, `$2` lease end, `$4` limit, then as above. */
export function claimParams(now: Date, options: ClaimOptions): SqlValue[] {
  return [
    options.owner,
    new Date(now.getTime() + options.leaseMs),
    now,
    options.limit,
    options.dueBefore ?? now,
    ...(options.teamId === undefined ? [] : [options.teamId]),
  ];
}

/** What a completion writes, by the names the bookkeeping UPDATE reads them by. */
export const completionFields = [
  'slot',
  'owner',
  'outcome',
  'at',
  'message_ts',
  'error_code',
  'ranking',
  'next_run_at',
  'failures',
  'pause_reason',
  'run',
] as const;
export type CompletionField = (typeof completionFields)[number];

export function completionValues(item: SlotCompletion): Record<CompletionField, SqlScalar> {
  const { slot, completion } = item;
  return {
    slot,
    owner: completion.owner,
    outcome: completion.outcome,
    at: completion.at,
    message_ts: completion.messageTs ?? null,
    error_code:
      completion.outcome === 'skipped'
        ? encodeSkipReason(completion.skipReason ?? { kind: 'missed' })
        : encodeProblem(completion),
    ranking: completion.ranking ? JSON.stringify(completion.ranking) : null,
    next_run_at: completion.nextRunAt ?? null,
    failures: completion.consecutiveFailures ?? null,
    pause_reason: encodePauseReason(completion.pauseReason),
    run: completion.run ? JSON.stringify(completion.run) : null,
  };
}

/**
 * A completion's digest bookkeeping as the SET list of one UPDATE, decided on the row being
 * updated (so no read-then-write, and PostgreSQL re-evaluates it on the latest row version):
 * - the last run, failure count, ranking and pause change only when the completion was
 *   `accepted` (it could write the slot's delivery record, see `RunRepository.complete`) and for
 *   the newest slot (a later slot than the recorded one, or the same slot neither `posted` nor
 *   `skipped`), so a late completion never rewrites what another runner settled;
 * - `next_run_at` moves only while it is still at or before the slot, so never back;
 * - the lease is released when the completion's owner holds it.
 * `d` prefixes the digest's columns (`d.` in an UPDATE ... FROM); `v` names each input value;
 * `accepted` is a boolean SQL expression (always true when left out).
 */
export function completionAssignments(
  d: string,
  v: (field: CompletionField) => string,
  accepted = '1 = 1',
): string {
  const newest = `((${accepted}) AND (${d}last_run_slot IS NULL OR ${d}last_run_slot < ${v('slot')} OR (${d}last_run_slot = ${v('slot')} AND ${d}last_run_outcome NOT IN ('posted', 'skipped'))))`;
  const ifNewest = (column: string, value: string) =>
    `${column} = CASE WHEN ${newest} THEN ${value} ELSE ${d}${column} END`;
  const pause = `${v('pause_reason')} IS NOT NULL AND ${newest}`;
  const released = `${d}lease_owner = ${v('owner')}`;
  return [
    ifNewest('last_run_slot', v('slot')),
    ifNewest('last_run_outcome', v('outcome')),
    ifNewest('last_run_at', v('at')),
    ifNewest('last_run_error', v('error_code')),
    ifNewest('last_run_ts', v('message_ts')),
    ifNewest('consecutive_failures', `COALESCE(${v('failures')}, ${d}consecutive_failures)`),
    `last_ranking = CASE WHEN ${v('ranking')} IS NOT NULL AND ${newest} THEN ${v('ranking')} ELSE ${d}last_ranking END`,
    `next_run_at = CASE WHEN ${v('next_run_at')} IS NOT NULL AND ${d}next_run_at <= ${v('slot')} THEN ${v('next_run_at')} ELSE ${d}next_run_at END`,
    `status = CASE WHEN ${pause} THEN 'paused' ELSE ${d}status END`,
    `paused_reason = CASE WHEN ${pause} THEN ${v('pause_reason')} ELSE ${d}paused_reason END`,
    `updated_at = ${v('at')}`,
    `lease_owner = CASE WHEN ${released} THEN NULL ELSE ${d}lease_owner END`,
    `lease_until = CASE WHEN ${released} THEN NULL ELSE ${d}lease_until END`,
  ].join(',\n           ');
}

/**
 * The delivery record a `posted` or `failed` completion writes, and when it may overwrite an
 * existing one (see `RunRepository.complete`); shared by both dialects' statements.
 */
export const postedMayOverwrite = (record: string, incoming: string) =>
  `${record}.status = 'posting' AND ${record}.owner = ${incoming}.owner`;
export const failedMayOverwrite = (record: string, incoming: string) =>
  `(${record}.status = 'failed' OR (${record}.status = 'posting' AND ${record}.owner = ${incoming}.owner))`;
/** A slot skipped after its question was answered (nothing changed) replaces only a failure. */
export const skippedMayOverwrite = (record: string) => `${record}.status = 'failed'`;

/**
 * Drops a digest's runs beyond the latest `runsKept` (`$1` the digest). A digest with fewer keeps
 * them all: the subquery is then NULL and no slot is below it.
 */
export const pruneRunsSql = `DELETE FROM digest_runs WHERE digest_id = $1 AND slot < (
    SELECT slot FROM digest_runs WHERE digest_id = $1 ORDER BY slot DESC LIMIT 1 OFFSET ${runsKept - 1})`;
