/**
 * The digest runner as the app and `digests run-due` both build it: the engine with the Block Kit
 * digest message, the pause and outage DMs in words, and the configured policy. One place, so a
 * digest posted by the in-app timer and one posted by a platform scheduler look and behave the same.
 */
import type { AnalyticsApi } from '../analytics/types.ts';
import type { Outlets } from '../digests/outlets.ts';
import { type Clock, DigestRunner, type DigestRunnerOptions } from '../digests/runner.ts';
import type { Logger } from '../logger.ts';
import { defined } from '../model/defined.ts';
import { renderDigestsResumed, renderOutageNotice } from '../render/digests/digest-outages.ts';
import { renderDigestMessage, renderDigestPaused } from '../render/digests/digest-post.ts';
import { renderUnconfirmedNotice } from '../render/digests/digest-unconfirmed.ts';
import type { Database } from '../store/database.ts';
import { type CanvasHistory, DigestCanvases, runsHistory } from './digest-canvas.ts';

export interface DigestRunnerBuildOptions {
  /** The digests, their runs, the workspaces' outages and the digests' canvases. */
  readonly db: Pick<Database, 'digests' | 'runs' | 'outages' | 'canvases'>;
  readonly analytics: AnalyticsApi;
  /** Where each workspace's digests post, how creators are named, where canvases go. */
  readonly outlets: Outlets;
  readonly logger: Logger;
  readonly policy: {
    readonly graceMs: number;
    readonly maxConsecutiveFailures: number;
    readonly tickMs?: number;
  };
  readonly clock?: Clock;
  /** Finer settings (tests, benchmarks); the policy's values win over these. */
  readonly runnerOptions?: DigestRunnerOptions;
  /** The earlier runs a canvas lists; by default the run history (`runsHistory`). */
  readonly canvasHistory?: CanvasHistory;
}

export function createDigestRunner(options: DigestRunnerBuildOptions): DigestRunner {
  const clock = options.clock;
  const { posters, names, canvasWriters } = options.outlets;
  const canvases =
    canvasWriters === undefined
      ? undefined
      : new DigestCanvases({
          digests: options.db.digests,
          canvases: options.db.canvases.digests,
          writers: canvasWriters,
          notifyCreator: (teamId, userId, message) =>
            posters.forTeam(teamId).notifyCreator(userId, message),
          history: options.canvasHistory ?? runsHistory(options.db.runs),
          logger: options.logger,
          now: () => (clock === undefined ? new Date() : clock.now()),
        });
  return new DigestRunner({
    db: options.db,
    analytics: options.analytics,
    posters,
    renderDigest: async (digest, query, result, changes) => {
      const createdByName = await names?.forTeam(digest.teamId)(digest.creatorId);
      return renderDigestMessage(
        digest,
        query,
        result,
        changes,
        createdByName === undefined ? {} : { createdByName },
      );
    },
    renderPauseNotice: renderDigestPaused,
    renderOutageNotice,
    renderResumeNotice: (digests, now, details) =>
      renderDigestsResumed(digests, { now, ...defined(details) }),
    renderUnconfirmedNotice: (digest, slot, now) => renderUnconfirmedNotice(digest, slot, { now }),
    ...(canvases === undefined ? {} : { afterPost: (run) => canvases.afterPost(run) }),
    logger: options.logger,
    ...defined({ clock: options.clock }),
    options: {
      ...options.runnerOptions,
      graceMs: options.policy.graceMs,
      maxConsecutiveFailures: options.policy.maxConsecutiveFailures,
      ...defined({ tickMs: options.policy.tickMs }),
    },
  });
}
