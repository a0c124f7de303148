/**
 * A conference's channel canvas, rewritten after each day's recap and after the final one (the
 * engine's `ConferenceCanvasKeeper`): the whole document rendered from the congress so far,
 * written by the surface's `CanvasWriter` (Slack's canvas API, or a file in the console), its
 * outcome recorded, and the creator told once per problem. Nothing here throws: a failure is
 * logged and recorded, and the leaderboard goes on.
 */
import type { ConferenceCanvasKeeper, ConferenceReport } from '../digests/conferences/outlet.ts';
import type { NotifyCreator, PerTeam } from '../digests/per-team.ts';
import type { Logger } from '../logger.ts';
import { type CanvasProblem, type CanvasWriter, canvasWriteOptions } from '../model/canvas.ts';
import type { Conference } from '../model/conference.ts';
import {
  renderConferenceCanvas,
  renderConferenceCanvasNotice,
} from '../render/canvases/conference-canvas.ts';
import type { CanvasRecords } from '../store/canvases.ts';
import type { ConferenceRepository } from '../store/conferences.ts';
import {
  canvasCreationHoldMs,
  heldByPlan,
  heldByPlanLog,
  planRefusalHold,
} from './digest-canvas.ts';

export interface ConferenceCanvasesOptions {
  readonly conferences: Pick<ConferenceRepository, 'get'>;
  /** The canvas records of conferences. */
  readonly canvases: CanvasRecords;
  /** Each workspace's canvas writer. */
  readonly writers: PerTeam<CanvasWriter>;
  /** A DM to the conference's creator. */
  readonly notifyCreator: NotifyCreator;
  readonly logger: Logger;
  readonly now: () => Date;
  /** The slash command the notices name; `/influencers` when absent. */
  readonly command?: string;
}

export class ConferenceCanvases implements ConferenceCanvasKeeper {
  readonly #options: ConferenceCanvasesOptions;

  constructor(options: ConferenceCanvasesOptions) {
    this.#options = options;
  }

  async write(claimed: Conference, report: ConferenceReport, at: Date): Promise<void> {
    const { conferences, canvases, writers, logger, now } = this.#options;
    const conferenceId = claimed.id;
    try {
      // The canvas as stored now: an edit may have turned it off since the claim.
      const conference = await conferences.get(conferenceId);
      const state = conference?.canvas;
      if (conference === undefined || state === undefined || !state.enabled) return;
      if (heldByPlan(state, now())) {
        logger.info({ conferenceId, problem: state.problem }, heldByPlanLog);
        return;
      }
      if (state.canvas === undefined) {
        // Creation is not idempotent: of two instances (or a run and one killed mid-create whose
        // hold has not run out), one creates and the other leaves it.
        const start = now();
        const until = new Date(start.getTime() + canvasCreationHoldMs);
        if (!(await canvases.claimCreation(conferenceId, start, until))) {
          logger.info({ conferenceId }, 'another run is creating the conference canvas');
          return;
        }
      }
      const document = renderConferenceCanvas(conference, report, at);
      const write = await writers
        .forTeam(conference.teamId)
        .write(conference.channelId, state.canvas, document, canvasWriteOptions(state));
      await canvases.record(conferenceId, write, now(), planRefusalHold(write, now()));
      if (write.kind === 'written') return;
      logger.warn({ conferenceId, problem: write.problem }, 'conference canvas not written');
      if (state.told.includes(write.problem)) return;
      if (!(await canvases.markTold(conferenceId, write.problem))) return;
      await this.#tell(conference, write.problem);
    } catch (error) {
      logger.warn({ err: error, conferenceId }, 'could not keep the conference canvas');
    }
  }

  async #tell(conference: Conference, problem: CanvasProblem): Promise<void> {
    const { notifyCreator, logger, command } = this.#options;
    try {
      await notifyCreator(
        conference.teamId,
        conference.creatorId,
        renderConferenceCanvasNotice(conference, problem, command === undefined ? {} : { command }),
      );
    } catch (error) {
      logger.warn(
        { err: error, conferenceId: conference.id },
        'could not tell the creator about the canvas',
      );
    }
  }
}
