/**
 * A digest's channel canvas, rewritten after each post (`DigestRunner`'s `afterPost`): the whole
 * document rendered from the run and the digest's history, written by the surface's
 * `CanvasWriter` (Slack's canvas API, or a file in the console), its outcome recorded, and the
 * creator told once per problem. Nothing here can stop or delay a post: it starts once the post
 * is recorded, and every failure is logged and recorded, never thrown.
 */

import type { NotifyCreator, PerTeam } from '../digests/per-team.ts';
import type { PostedRun } from '../digests/runner.ts';
import type { Logger } from '../logger.ts';
import {
  type CanvasWrite,
  type CanvasWriter,
  canvasPlanRefusalRetryMs,
  canvasWriteOptions,
  type DigestCanvas,
  planCanvasProblems,
} from '../model/canvas.ts';
import type { Digest } from '../model/digest.ts';
import type { DigestRun } from '../model/digest-run.ts';
import { type CanvasHistoryEntry, canvasHistoryMaxEntries } from '../render/canvases/canvas.ts';
import { renderCanvasProblemNotice, renderDigestCanvas } from '../render/canvases/digest-canvas.ts';
import { failureWords } from '../render/digests/digest-failures.ts';
import { skipWords } from '../render/management/digest-management.ts';
import type { CanvasRecords } from '../store/canvases.ts';
import type { DigestRepository } from '../store/digests.ts';
import type { RunRepository } from '../store/runs.ts';

/**
 * The earlier runs a digest's canvas lists, newest first, before the run at `slot`. `digest` is
 * the digest as the run found it (its `lastRanking` is the previous posted run's).
 */
export type CanvasHistory = (digest: Digest, slot: Date) => Promise<CanvasHistoryEntry[]>;

/**
 * The history from the run records (`RunRepository.recent`): each earlier run's top 3 and who
 * entered its top N, or why it did not post.
 */
export function runsHistory(runs: Pick<RunRepository, 'recent'>): CanvasHistory {
  return async (digest, slot) => {
    const recent = await runs.recent(digest.id, canvasHistoryMaxEntries + 1);
    return recent
      .filter((run) => run.slot.getTime() < slot.getTime())
      .slice(0, canvasHistoryMaxEntries)
      .map((run) => historyEntry(run, digest.top));
  };
}

function historyEntry(run: DigestRun, top: number): CanvasHistoryEntry {
  const at = run.slot;
  switch (run.outcome) {
    case 'posted': {
      const names = new Map(run.entries.map((entry) => [entry.handle, entry.name]));
      return {
        at,
        top: run.entries.slice(0, 3).map((entry) => ({ handle: entry.handle, name: entry.name })),
        newcomers: run.entered.map((handle) => ({ handle, name: names.get(handle) })),
      };
    }
    case 'skipped':
      return {
        at,
        top: [],
        newcomers: [],
        note: `not posted: ${skipWords(run.skipReason ?? { kind: 'missed' }, top)}`,
      };
    case 'failed':
      return {
        at,
        top: [],
        newcomers: [],
        note: `failed: ${failureWords(run.errorCode ?? 'unknown', run.errorDetail)}`,
      };
  }
}

/**
 * How long one runner holds a canvas's creation: well past the Slack client's timeouts, so a
 * creation still going is never repeated beside it; one cut short by a crash frees it after this.
 */
export const canvasCreationHoldMs = 5 * 60_000;

/**
 * Until when a canvas write the workspace's plan refused is not tried again (see
 * {@link planCanvasProblems}); undefined for any other outcome.
 */
export function planRefusalHold(write: CanvasWrite, now: Date): Date | undefined {
  if (write.kind === 'written' || !planCanvasProblems.has(write.problem)) return undefined;
  return new Date(now.getTime() + canvasPlanRefusalRetryMs);
}

/** Whether the canvas waits out a plan's refusal at `now`: no write is tried then. */
export function heldByPlan(state: DigestCanvas, now: Date): boolean {
  return state.heldUntil !== undefined && state.heldUntil.getTime() > now.getTime();
}

/** Logged for a canvas left alone while it waits out a plan's refusal. */
export const heldByPlanLog = "the canvas waits out the workspace plan's refusal; not written";

export interface DigestCanvasesOptions {
  readonly digests: Pick<DigestRepository, 'get'>;
  /** The canvas records of digests. */
  readonly canvases: CanvasRecords;
  /** Each workspace's canvas writer. */
  readonly writers: PerTeam<CanvasWriter>;
  /** A DM to the digest's creator. */
  readonly notifyCreator: NotifyCreator;
  readonly history: CanvasHistory;
  readonly logger: Logger;
  readonly now: () => Date;
  /** The slash command the notices name; `/influencers` when absent. */
  readonly command?: string;
}

export class DigestCanvases {
  readonly #options: DigestCanvasesOptions;

  constructor(options: DigestCanvasesOptions) {
    this.#options = options;
  }

  /** Rewrites the canvas of a digest that keeps one, after `run` posted. Never throws. */
  async afterPost(run: PostedRun): Promise<void> {
    const { digests, canvases, writers, history, logger, now } = this.#options;
    const digestId = run.digest.id;
    try {
      // The canvas state as stored now: an edit may have turned it off since the claim.
      const digest = await digests.get(digestId);
      const state = digest?.canvas;
      if (digest === undefined || state === undefined || !state.enabled) return;
      if (heldByPlan(state, now())) {
        logger.info({ digestId, problem: state.problem }, heldByPlanLog);
        return;
      }
      if (state.canvas === undefined) {
        const at = now();
        const until = new Date(at.getTime() + canvasCreationHoldMs);
        if (!(await canvases.claimCreation(digestId, at, until))) {
          logger.info({ digestId }, 'another run is creating the digest canvas; leaving it to it');
          return;
        }
      }
      const document = renderDigestCanvas(
        digest,
        run.query,
        run.result,
        run.changes,
        await history(run.digest, run.slot),
        now(),
      );
      const write = await writers
        .forTeam(digest.teamId)
        .write(digest.channelId, state.canvas, document, canvasWriteOptions(state));
      await canvases.record(digestId, write, now(), planRefusalHold(write, now()));
      if (write.kind === 'written') return;
      logger.warn({ digestId, problem: write.problem }, 'digest canvas not written');
      if (state.told.includes(write.problem)) return;
      if (!(await canvases.markTold(digestId, write.problem))) return;
      await this.#tell(digest, write.problem);
    } catch (error) {
      logger.warn({ err: error, digestId }, 'could not keep the digest canvas');
    }
  }

  async #tell(digest: Digest, problem: Parameters<typeof renderCanvasProblemNotice>[1]) {
    const { notifyCreator, logger, command } = this.#options;
    try {
      await notifyCreator(
        digest.teamId,
        digest.creatorId,
        renderCanvasProblemNotice(digest, problem, command === undefined ? {} : { command }),
      );
    } catch (error) {
      logger.warn(
        { err: error, digestId: digest.id },
        'could not tell the creator about the canvas',
      );
    }
  }
}
