import type { Logger } from '../logger.ts';
import type { Digest, WorkspaceGone } from '../model/digest.ts';
import type { DigestRepository } from '../store/digests.ts';
import { nextRunAfter } from '../time/schedule.ts';
import type { Clock } from './clock.ts';
import type { DigestPoster } from './delivery.ts';
import type { PerTeam } from './per-team.ts';
import {
  type RenderResumeNotice,
  type SkippedSlots,
  slotsBetween,
  tellCreatorsResumed,
} from './resumed.ts';

export type { RenderResumeNotice } from './resumed.ts';

export interface WorkspacesOptions {
  readonly digests: Pick<
    DigestRepository,
    'pauseWorkspace' | 'workspacesGone' | 'pausedWhileGone' | 'resumeFromGone'
  >;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Whom each workspace's creators are told by, and whether the app works there. */
  readonly posters: PerTeam<DigestPoster>;
  /** Without it the creators are not told; the resumption is still logged. */
  readonly renderResumeNotice: RenderResumeNotice | undefined;
  /** How often a tick may ask Slack whether the app works again where it was gone. */
  readonly checkEveryMs: number;
}

/**
 * Workspaces the app left (Slack's `app_uninstalled` and `tokens_revoked` events): their digests
 * are paused with that reason, so no runner claims them, and resume once the app works there
 * again, which the Slack layer reports on any request from the workspace and a tick finds out
 * from a successful `auth.test` (at most every `checkEveryMs`). Each creator is told once, in one
 * DM, which of their digests run again.
 */
export class Workspaces {
  readonly #options: WorkspacesOptions;
  #checkedAt = Number.NEGATIVE_INFINITY;

  constructor(options: WorkspacesOptions) {
    this.#options = options;
  }

  /** The app left the workspace: its active digests pause with that reason. */
  async left(teamId: string, kind: WorkspaceGone): Promise<number> {
    const { digests, clock, logger } = this.#options;
    const paused = await digests.pauseWorkspace(teamId, kind, clock.now());
    logger.warn({ teamId, kind, paused }, 'the app left a workspace; its digests are paused');
    return paused;
  }

  /**
   * The app works in the workspace again: the digests paused because it left resume at their
   * next slot after now, and their creators are told. Returns the digests resumed by this call.
   */
  async back(teamId: string): Promise<Digest[]> {
    const { digests, clock, logger } = this.#options;
    const now = clock.now();
    const resumed: Digest[] = [];
    const skipped = new Map<string, SkippedSlots>();
    for (const digest of await digests.pausedWhileGone(teamId)) {
      const next = nextRunAfter(digest.schedule, now);
      if (next === undefined) continue;
      const again = await digests.resumeFromGone(digest.id, now, next);
      if (again === undefined) continue;
      resumed.push(again);
      // The slots it owed from its pause up to now, all of them skipped.
      const missed = slotsBetween(digest.schedule, digest.nextRunAt, new Date(now.getTime() + 1));
      if (missed !== undefined) skipped.set(digest.id, missed);
    }
    if (resumed.length === 0) return resumed;
    logger.info(
      { teamId, resumed: resumed.length },
      'the app works in a workspace again; its digests resume',
    );
    const { posters, renderResumeNotice } = this.#options;
    await tellCreatorsResumed(
      {
        notifyCreator: (team, userId, message) =>
          posters.forTeam(team).notifyCreator(userId, message),
        logger,
        renderResumeNotice,
      },
      resumed,
      now,
      { skipped },
    );
    return resumed;
  }

  /**
   * At most every `checkEveryMs`, when some workspace's digests wait for the app to come back,
   * asks Slack which workspace the bot token works for and resumes that one's.
   */
  async checkBack(): Promise<void> {
    const { digests, clock, posters, checkEveryMs } = this.#options;
    const now = clock.now().getTime();
    if (now - this.#checkedAt < checkEveryMs) return;
    this.#checkedAt = now;
    const gone = await digests.workspacesGone();
    if (gone.length === 0) return;
    // Each workspace asked through its own access: the one it answers for is back.
    for (const teamId of gone) {
      const working = await posters.forTeam(teamId).workspace();
      if (working === teamId) await this.back(teamId);
    }
  }
}
