/**
 * What people can do with conferences, whatever surface they use (slash command, Home tab, local
 * console): start, list, stop, edit, run the next update now. Bolt-free: the Slack facts come
 * through `DigestAccess`, so the rules are those of digests (channel postable, databases known,
 * creator or admin to change one).
 */
import type { AnalyticsApi } from '../analytics/types.ts';
import { dayStart } from '../digests/conferences/days.ts';
import type { ConferenceRunner, ConferenceTickReport } from '../digests/conferences/runner.ts';
import { type Logger, silentLogger } from '../logger.ts';
import type { Conference, ConferenceSpec } from '../model/conference.ts';
import type { ConferenceActionResult } from '../render/management/conference-management.ts';
import type { ConferenceRepository, ConferenceSettings } from '../store/conferences.ts';
import { checkDatabases } from './digest-checks.ts';
import type { DigestAccess, DigestCaller } from './digest-manager.ts';

export interface ConferenceManagerOptions {
  readonly conferences: ConferenceRepository;
  readonly runner: ConferenceRunner;
  /** Asked about each database of a new conference; without it they are not checked (tests). */
  readonly analytics?: AnalyticsApi;
  readonly now?: () => Date;
  readonly logger?: Logger;
}

export type CreatedConference =
  | {
      readonly kind: 'created';
      readonly conference: Conference;
      /** Its hashtags the analytics service could not be asked about (it did not answer). */
      readonly unchecked: readonly string[];
    }
  | { readonly kind: 'duplicate'; readonly conference: Conference };

const databaseSet = (databases: readonly string[]) =>
  JSON.stringify([...new Set(databases.map((database) => database.toLowerCase()))].sort());

export class ConferenceManager {
  readonly #conferences: ConferenceRepository;
  readonly #runner: ConferenceRunner;
  readonly #analytics: AnalyticsApi | undefined;
  readonly #now: () => Date;
  readonly #logger: Logger;

  constructor(options: ConferenceManagerOptions) {
    this.#conferences = options.conferences;
    this.#runner = options.runner;
    this.#analytics = options.analytics;
    this.#now = options.now ?? (() => new Date());
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * Checks the channel, the databases and the conferences already there before storing it, as a
   * digest is checked. It starts by itself on its first day; one under way starts at the next tick.
   */
  async create(
    caller: DigestCaller,
    channelId: string,
    spec: ConferenceSpec,
    access: DigestAccess,
    options: { readonly canvas?: boolean } = {},
  ): Promise<CreatedConference> {
    const existing = (await this.#conferences.listByChannel(caller.teamId, channelId)).find(
      (conference) =>
        conference.status === 'active' &&
        databaseSet(conference.databases) === databaseSet(spec.databases) &&
        conference.firstDay === spec.firstDay &&
        conference.lastDay === spec.lastDay,
    );
    if (existing !== undefined) return { kind: 'duplicate', conference: existing };
    await access.assertCanPost(channelId);
    const checked =
      this.#analytics === undefined ||
      (await checkDatabases(this.#analytics, spec.databases, this.#now(), this.#logger));
    const now = this.#now();
    const start = dayStart(spec.firstDay, spec.zone);
    const conference = await this.#conferences.create(
      {
        ...spec,
        teamId: caller.teamId,
        channelId,
        creatorId: caller.userId,
        nextRunAt: new Date(Math.max(now.getTime(), start.getTime())),
        ...(options.canvas === true ? { canvas: true } : {}),
      },
      now,
    );
    return { kind: 'created', conference, unchecked: checked ? [] : spec.databases };
  }

  listForChannel(teamId: string, channelId: string): Promise<Conference[]> {
    return this.#conferences.listByChannel(teamId, channelId);
  }

  listActive(teamId: string): Promise<Conference[]> {
    return this.#conferences.listActive(teamId);
  }

  /** Ends a conference the same way its last day would; the final recap follows at once. */
  async stop(
    caller: DigestCaller,
    id: string,
    access: DigestAccess,
  ): Promise<ConferenceActionResult> {
    const allowed = await this.#allowed(caller, id, access);
    if (allowed.kind !== 'allowed') return allowed;
    const stopped = await this.#conferences.requestStop(id, this.#now());
    if (stopped === undefined) return { kind: 'not_found', id };
    await this.tick();
    return { kind: 'stopped', conference: (await this.#conferences.get(id)) ?? stopped };
  }

  async edit(
    caller: DigestCaller,
    id: string,
    settings: ConferenceSettings,
    access: DigestAccess,
  ): Promise<ConferenceActionResult> {
    const allowed = await this.#allowed(caller, id, access);
    if (allowed.kind !== 'allowed') return allowed;
    const edited = await this.#conferences.update(id, settings, this.#now());
    return edited === undefined
      ? { kind: 'not_found', id }
      : { kind: 'edited', conference: edited };
  }

  /** Runs the conferences due now (a new one under way). */
  tick(): Promise<ConferenceTickReport> {
    return this.#runner.runDue(this.#now());
  }

  /**
   * `conference tick`: the channel's next updates, now rather than at their refresh. Returns how
   * many of the channel's leaderboards were posted or edited: one not started yet, or skipped
   * to its next refresh, is run but not brought up to date.
   */
  async tickNow(teamId: string, channelId: string): Promise<number> {
    const shown = async () =>
      new Map(
        (await this.#conferences.listByChannel(teamId, channelId)).map((conference) => [
          conference.id,
          conference.state.updatedAt,
        ]),
      );
    const before = await shown();
    await this.#conferences.dueNow(teamId, channelId, this.#now());
    await this.tick();
    const after = await shown();
    return [...after].filter(
      ([id, updatedAt]) => updatedAt !== undefined && updatedAt !== before.get(id),
    ).length;
  }

  async #allowed(
    caller: DigestCaller,
    id: string,
    access: DigestAccess,
  ): Promise<ConferenceActionResult | { readonly kind: 'allowed' }> {
    const conference = await this.#conferences.get(id);
    if (
      conference === undefined ||
      conference.teamId !== caller.teamId ||
      conference.status !== 'active'
    ) {
      return { kind: 'not_found', id };
    }
    if (conference.creatorId !== caller.userId && !(await access.isAdmin(caller))) {
      return { kind: 'not_allowed', conference };
    }
    return { kind: 'allowed' };
  }
}
