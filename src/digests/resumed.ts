/**
 * Digests that run again after they could not (the app had left their workspace, or an outage
 * held them): what each skipped meanwhile, and the one DM per creator that says so.
 */
import type { Logger } from '../logger.ts';
import type { CronSchedule, Digest, OutageCause } from '../model/digest.ts';
import type { SlackMessage } from '../model/message.ts';
import type { RunRepository } from '../store/runs.ts';
import { countRunsBetween, nextRunAfter } from '../time/schedule.ts';
import type { NotifyCreator } from './per-team.ts';

/** How many skipped slots of one digest a notice names; the rest are counted. */
export const skippedSlotsNamed = 5;

/** The slots a digest skipped while it could not run: the first few, and how many in all. */
export interface SkippedSlots {
  /** At most `skippedSlotsNamed`, in time order. */
  readonly first: readonly Date[];
  readonly count: number;
}

/** Why digests resumed, and what each skipped meanwhile (by digest id; none when absent). */
export interface ResumeDetails {
  /** The outage that held them; absent when the app had left the workspace. */
  readonly cause?: OutageCause;
  /**
   * True when nothing held them: the runner came to their slots too late to post them (the app
   * was not running, or fell behind).
   */
  readonly late?: boolean;
  readonly skipped: ReadonlyMap<string, SkippedSlots>;
}

/** The slots of runs of `count` consecutive slots from each `from`, as a notice names them. */
export function skippedSlots(
  schedule: Pick<CronSchedule, 'expression' | 'zone'>,
  runs: readonly { readonly from: Date; readonly count: number }[],
): SkippedSlots {
  const first: Date[] = [];
  let count = 0;
  for (const run of runs) {
    count += run.count;
    let slot: Date | undefined = run.from;
    for (let i = 0; i < run.count && slot !== undefined && first.length < skippedSlotsNamed; i++) {
      first.push(slot);
      slot = nextRunAfter(schedule, slot);
    }
  }
  return { first, count };
}

/** The slots from `from` (a slot) up to `until` (excluded); undefined when there are none. */
export function slotsBetween(
  schedule: Pick<CronSchedule, 'expression' | 'zone'>,
  from: Date,
  until: Date,
): SkippedSlots | undefined {
  const count = countRunsBetween(schedule, from, until);
  if (count === 0) return undefined;
  return skippedSlots(schedule, [{ from, count }]);
}

/**
 * The DM to a creator whose digests resumed, once the app worked in their workspace again or an
 * outage that held them ended: which digests, and the slots each skipped meanwhile.
 */
export type RenderResumeNotice = (
  digests: readonly Digest[],
  now: Date,
  details: ResumeDetails,
) => SlackMessage;

/**
 * One DM per creator, listing their digests that resumed and what each skipped; a creator who
 * cannot be told is logged and the others are still told.
 */
export async function tellCreatorsResumed(
  options: {
    readonly notifyCreator: NotifyCreator;
    readonly logger: Logger;
    readonly renderResumeNotice: RenderResumeNotice | undefined;
  },
  digests: readonly Digest[],
  now: Date,
  details: ResumeDetails,
): Promise<void> {
  const { notifyCreator, logger, renderResumeNotice } = options;
  if (renderResumeNotice === undefined) return;
  // A person is one id in one workspace: the same id elsewhere is someone else.
  const byCreator = Map.groupBy(digests, (digest) => `${digest.teamId}/${digest.creatorId}`);
  for (const theirs of byCreator.values()) {
    const { teamId, creatorId } = theirs[0] as Digest;
    try {
      await notifyCreator(teamId, creatorId, renderResumeNotice(theirs, now, details));
    } catch (error) {
      logger.warn({ err: error, creatorId }, 'could not tell a creator their digests resumed');
    }
  }
}

/**
 * One DM per creator listing their digests' slots skipped because a runner came to them too late
 * (the app was not running, or fell behind), with "Run now" for each: those no runner has told of
 * yet, whichever recorded them, so a runner that stopped before telling leaves them to the next
 * one. Each record is taken in the store before the DM, so of several instances one tells; one
 * creator at a time, so the tick after a long stop never holds every digest it skipped at once.
 * A creator who cannot be told is logged and given back, for the next runner to start.
 */
export async function tellCreatorsLate(
  options: {
    readonly runs: Pick<RunRepository, 'lateCreators' | 'takeLateSkips' | 'untakeLateSkips'>;
    readonly notifyCreator: NotifyCreator;
    readonly logger: Logger;
    readonly renderResumeNotice: RenderResumeNotice | undefined;
  },
  now: Date,
): Promise<void> {
  const { runs, logger, notifyCreator, renderResumeNotice } = options;
  if (renderResumeNotice === undefined) return;
  const creators = await runs.lateCreators();
  if (creators.length > 0) {
    logger.info({ creators: creators.length }, 'telling creators which digest runs came too late');
  }
  for (const creator of creators) {
    const skips = await runs.takeLateSkips(creator, now);
    if (skips.length === 0) continue;
    const skipped = new Map<string, SkippedSlots>(
      skips.map(({ digest, runs }) => [digest.id, skippedSlots(digest.schedule, runs)]),
    );
    const digests = skips.map((skip) => skip.digest);
    try {
      await notifyCreator(
        creator.teamId,
        creator.creatorId,
        renderResumeNotice(digests, now, { late: true, skipped }),
      );
    } catch (error) {
      logger.warn(
        { err: error, creatorId: creator.creatorId },
        'could not tell a creator which digest runs came too late; the next start tries again',
      );
      const records = skips.flatMap(({ digest, runs }) =>
        runs.map((run) => ({ digestId: digest.id, slot: run.from })),
      );
      await runs.untakeLateSkips(records);
    }
  }
}
