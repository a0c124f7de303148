/**
 * The outage record of each workspace whose digests are on hold (the analytics service or Slack
 * failed them all): one row per workspace, written so that of several instances exactly one
 * opens, probes or closes it at a time.
 */
import type { Outage, OutageCause } from '../model/digest.ts';

export interface OutageRepository {
  /**
   * Opens an outage for a workspace unless one is open; true only for the call that opened it, so
   * that one instance logs it and tells the admins. An open one keeps its start and takes `cause`
   * and a `probeAt` later than its own.
   */
  open(teamId: string, cause: OutageCause, now: Date, probeAt: Date): Promise<boolean>;
  /** Every open outage; a handful at most. */
  list(): Promise<Outage[]>;
  /**
   * Takes the workspace's next probe when it is due at `now`, moving it to `nextProbeAt`; true for
   * one caller only, however many instances try at once.
   */
  claimProbe(teamId: string, now: Date, nextProbeAt: Date): Promise<boolean>;
  /** Closes the workspace's outage; true for the call that closed it. */
  close(teamId: string): Promise<boolean>;
}
