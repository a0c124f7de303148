/**
 * What people can do with digests, whatever surface they use (slash command, buttons, Home tab,
 * local console): create, list, pause, resume, remove, run now. Bolt-free: the Slack facts it
 * needs (can the bot post there, is this person an admin) come through `DigestAccess`, so the
 * rules are the same everywhere and testable without Slack.
 */

import type { AnalyticsApi } from '../analytics/types.ts';
import type { RepostResult, RunNowResult } from '../digests/runner.ts';
import { DigestNotFoundError, DigestPermissionError, ParseError } from '../errors.ts';
import { type Logger, silentLogger } from '../logger.ts';
import type { DigestAction } from '../model/commands.ts';
import { defined } from '../model/defined.ts';
import type { Digest, Outage } from '../model/digest.ts';
import type { DigestRun } from '../model/digest-run.ts';
import type { DigestSpec } from '../parsing/digest.ts';
import { applyDigestEdit, type DigestEdit } from '../parsing/digest-edit.ts';
import { digestErrors } from '../parsing/messages/digest.ts';
import { scheduleNeverRunsText } from '../render/digests/schedule.ts';
import type { Database } from '../store/database.ts';
import { nextRunAfter, nextRuns } from '../time/schedule.ts';
import {
  type ComparedSetting,
  checkAccount,
  checkDatabases,
  identicalAfterEdit,
  identicalDigest,
} from './digest-checks.ts';

/** Who is asking, and from which workspace: a digest belongs to one workspace only. */
export interface DigestCaller {
  readonly teamId: string;
  readonly userId: string;
}

/** Slack facts the rules depend on. */
export interface DigestAccess {
  /** Throws (ChannelUnreachableError, ParseError) when the bot could never post there. */
  assertCanPost(channelId: string): Promise<void>;
  /** Workspace admins and owners may change anyone's digest. */
  isAdmin(caller: DigestCaller): Promise<boolean>;
}

/** How many upcoming runs a confirmation shows. */
export const upcomingRunsShown = 3;

export interface CreatedDigest {
  readonly digest: Digest;
  /** The next runs, the first being `digest.nextRunAt`. */
  readonly nextRuns: readonly Date[];
  /** False when the analytics service could not be asked about the databases yet. */
  readonly databasesChecked?: boolean;
  /** A watch's account the service has not ranked in its databases lately (`checkAccount`). */
  readonly accountUnseen?: boolean;
  /** What the grammar decided for an edited schedule (no time given: the digest's own). */
  readonly notes?: readonly string[];
}

/**
 * An edit saved, or refused because the edited digest would repeat `duplicate`, another digest
 * of the same place; `settings` are the compared ones the edit changed, for the form to point at.
 */
export type EditOutcome =
  | (CreatedDigest & { readonly kind: 'edited' })
  | {
      readonly kind: 'duplicate';
      readonly digest: Digest;
      readonly duplicate: Digest;
      readonly settings: readonly ComparedSetting[];
    };

export type DigestActionOutcome =
  | { readonly action: 'pause' | 'resume'; readonly digest: Digest; readonly changed: boolean }
  | { readonly action: 'remove'; readonly digest: Digest }
  | { readonly action: 'run'; readonly digest: Digest; readonly result: RunNowResult };

export interface ActHooks {
  /** Called once the run is allowed and about to start, so the caller can say it started. */
  readonly beforeRun?: (digest: Digest) => Promise<void>;
}

export interface DigestManagerOptions {
  readonly db: Pick<Database, 'digests' | 'runs' | 'outages'>;
  /** Asked about each database of a new digest; without it they are not checked (tests). */
  readonly analytics?: AnalyticsApi;
  /** Posts a digest outside its schedule ("Run now"). */
  readonly runNow: (digest: Digest) => Promise<RunNowResult>;
  /** Posts a slot left unconfirmed, as `person` chose ("Post it now"). */
  readonly postUnconfirmed?: (digest: Digest, slot: Date, person: string) => Promise<RepostResult>;
  readonly now?: () => Date;
  readonly logger?: Logger;
}

export class DigestManager {
  readonly #db: DigestManagerOptions['db'];
  readonly #analytics: AnalyticsApi | undefined;
  readonly #runNow: (digest: Digest) => Promise<RunNowResult>;
  readonly #postUnconfirmed: DigestManagerOptions['postUnconfirmed'];
  readonly #now: () => Date;
  readonly #logger: Logger;

  constructor(options: DigestManagerOptions) {
    this.#db = options.db;
    this.#analytics = options.analytics;
    this.#runNow = options.runNow;
    this.#postUnconfirmed = options.postUnconfirmed;
    this.#now = options.now ?? (() => new Date());
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * The digest in the channel identical to the one `spec` describes (see `identicalDigest`), which
   * a second would only repeat: the surface shows it instead of creating another.
   */
  async identicalIn(
    teamId: string,
    channelId: string,
    spec: DigestSpec,
  ): Promise<Digest | undefined> {
    return identicalDigest(
      await this.#db.digests.listByChannel(teamId, channelId),
      spec,
      this.#now(),
    );
  }

  /**
   * Checks the channel (unless it goes `toPerson`, to the creator's DM with the app) and then each
   * database before storing anything, so a digest the bot could
   * never post, or whose database the service does not know or the app may not read, fails now
   * with words the creator can act on, not at its first run. A service that cannot be reached
   * does not block creation: the result says the databases could not be checked yet. A watch of
   * an account the service has not ranked lately is created (the account may be new), and the
   * result says so, for its creator to check the handle.
   */
  async create(
    caller: DigestCaller,
    channelId: string,
    spec: DigestSpec,
    access: DigestAccess,
    options: { readonly toPerson?: boolean } = {},
  ): Promise<CreatedDigest> {
    // The app's own DM with the creator needs no membership and has no channel to check, nor
    // a channel canvas to keep.
    if (options.toPerson === true && spec.canvas === true) throw digestErrors.personalCanvas();
    if (options.toPerson !== true) await access.assertCanPost(channelId);
    const analytics = this.#analytics;
    const { account } = spec;
    // Asked together: the account's answer only counts once the databases are known.
    const [databasesChecked, accountSeen] =
      analytics === undefined
        ? [true, undefined]
        : await Promise.all([
            checkDatabases(analytics, spec.databases, this.#now(), this.#logger),
            account === undefined
              ? undefined
              : checkAccount(analytics, { ...spec, account }, this.#now(), this.#logger),
          ]);
    const now = this.#now();
    const upcoming = nextRuns(spec.schedule, now, upcomingRunsShown);
    const first = upcoming[0];
    if (first === undefined) {
      throw new ParseError(
        'bad_schedule',
        scheduleNeverRunsText(spec.schedule.expression),
        spec.schedule.expression,
      );
    }
    const digest = await this.#db.digests.create(
      {
        teamId: caller.teamId,
        channelId,
        creatorId: caller.userId,
        databases: spec.databases,
        schedule: spec.schedule,
        window: spec.window,
        top: spec.top,
        postWhen: spec.postWhen,
        presentation: spec.presentation,
        ...defined({
          metric: spec.metric,
          account: spec.account,
          canvas: spec.canvas,
          stakeholders: spec.stakeholders,
          orderBy: spec.orderBy,
        }),
        nextRunAt: first,
      },
      now,
    );
    this.#logger.info(
      { digestId: digest.id, channelId, creatorId: caller.userId, schedule: spec.schedule },
      'digest created',
    );
    return {
      digest,
      nextRuns: upcoming,
      databasesChecked,
      ...(accountSeen === 'unseen' ? { accountUnseen: true } : {}),
    };
  }

  listForChannel(teamId: string, channelId: string): Promise<Digest[]> {
    return this.#db.digests.listByChannel(teamId, channelId);
  }

  listForCreator(teamId: string, creatorId: string): Promise<Digest[]> {
    return this.#db.digests.listByCreator(teamId, creatorId);
  }

  /** Each digest's latest run from its history, for the Home tab; at most `limit` digests. */
  async latestRuns(digests: readonly Digest[], limit = 40): Promise<Map<string, DigestRun>> {
    const runs = await Promise.all(
      digests.slice(0, limit).map((digest) => this.#db.runs.recent(digest.id, 1)),
    );
    return new Map(
      runs.flatMap((each) => (each[0] === undefined ? [] : [[each[0].digestId, each[0]]])),
    );
  }

  /** The workspace's outage, while its digests are on hold. */
  async outageOf(teamId: string): Promise<Outage | undefined> {
    return (await this.#db.outages.list()).find((outage) => outage.teamId === teamId);
  }

  /**
   * A digest of the caller's workspace with its latest `limit` runs, newest first: anyone in the
   * workspace may read it, as anyone in a channel reads its posts.
   */
  async history(
    teamId: string,
    id: string,
    limit: number,
  ): Promise<{ readonly digest: Digest; readonly runs: DigestRun[] }> {
    const digest = await this.find(teamId, id);
    return { digest, runs: await this.#db.runs.recent(digest.id, limit) };
  }

  /** A digest of the caller's workspace; another workspace's id is not found, as if absent. */
  async find(teamId: string, id: string): Promise<Digest> {
    const digest = await this.#db.digests.get(id);
    if (digest === undefined || digest.teamId !== teamId) throw new DigestNotFoundError(id);
    return digest;
  }

  /**
   * A digest of the caller's workspace that the caller may change: its creator, or a workspace
   * admin or owner (asked only of others). Throws DigestNotFoundError, DigestPermissionError.
   */
  async changeable(
    caller: DigestCaller,
    id: string,
    access: Pick<DigestAccess, 'isAdmin'>,
  ): Promise<Digest> {
    const digest = await this.find(caller.teamId, id);
    if (digest.creatorId !== caller.userId && !(await access.isAdmin(caller))) {
      throw new DigestPermissionError(digest.id, digest.creatorId);
    }
    return digest;
  }

  /**
   * Changes a digest's schedule, window, top N, metric, zone, presentation or condition, with the
   * same permissions as the other actions. A changed schedule moves the next run to its first slot
   * after now; the result has the next runs to confirm, as a new digest's does. An edit that would
   * make the digest identical to another of the same place (see `identicalDigest`) changes
   * nothing: the result names that digest, as creating it would.
   */
  async edit(
    caller: DigestCaller,
    id: string,
    edit: DigestEdit,
    access: Pick<DigestAccess, 'isAdmin'>,
  ): Promise<EditOutcome> {
    const digest = await this.changeable(caller, id, access);
    const now = this.#now();
    const edited = applyDigestEdit(digest, edit, now);
    const upcoming = nextRuns(edited.schedule, now, upcomingRunsShown);
    const first = upcoming[0];
    if (first === undefined) {
      throw new ParseError(
        'bad_schedule',
        scheduleNeverRunsText(edited.schedule.expression),
        edited.schedule.expression,
      );
    }
    const repeated = identicalAfterEdit(
      await this.#db.digests.listByChannel(digest.teamId, digest.channelId),
      digest,
      edited,
      now,
    );
    if (repeated !== undefined) {
      this.#logger.info(
        { digestId: digest.id, by: caller.userId, duplicateOf: repeated.duplicate.id },
        'digest edit refused: it would repeat another digest',
      );
      return { kind: 'duplicate', digest, ...repeated };
    }
    const updated = await this.#db.digests.update(
      digest.id,
      {
        schedule: edited.schedule,
        window: edited.window,
        top: edited.top,
        metric: edited.metric,
        presentation: edited.presentation,
        postWhen: edited.postWhen,
        ...defined({
          canvas: edited.canvas,
          stakeholders: edited.stakeholders,
          orderBy: edited.orderBy,
        }),
        ...(edited.scheduleChanged ? { nextRunAt: first } : {}),
      },
      now,
    );
    this.#logger.info({ digestId: digest.id, by: caller.userId, edit }, 'digest edited');
    return { kind: 'edited', digest: updated, nextRuns: upcoming, notes: edited.notes };
  }

  /**
   * Posts a slot whose post may not have reached the channel, which its creator was told about
   * ("Post it now"): the creator or a workspace admin may, and it is posted once however often
   * and by whomever it is pressed. Throws DigestNotFoundError, DigestPermissionError.
   */
  async postUnconfirmed(
    caller: DigestCaller,
    id: string,
    slot: Date,
    access: Pick<DigestAccess, 'isAdmin'>,
  ): Promise<{ readonly digest: Digest; readonly result: RepostResult }> {
    const digest = await this.changeable(caller, id, access);
    // Not an AppError: a wiring bug: the service that offers this action gives it a runner.
    if (this.#postUnconfirmed === undefined) throw new Error('no runner posts unconfirmed slots');
    const result = await this.#postUnconfirmed(digest, slot, caller.userId);
    this.#logger.info(
      { digestId: digest.id, slot: slot.toISOString(), by: caller.userId, outcome: result.outcome },
      'unconfirmed digest slot: a person chose to post it',
    );
    return { digest, result };
  }

  /**
   * Pause, resume, remove or run one digest. Only its creator or a workspace admin/owner may;
   * others get DigestPermissionError, and the admin check is only made for them.
   */
  async act(
    caller: DigestCaller,
    action: DigestAction,
    id: string,
    access: Pick<DigestAccess, 'isAdmin'>,
    hooks: ActHooks = {},
  ): Promise<DigestActionOutcome> {
    const digest = await this.changeable(caller, id, access);
    const now = this.#now();
    switch (action) {
      case 'pause': {
        if (digest.status === 'paused') return { action, digest, changed: false };
        const paused = await this.#db.digests.pause(digest.id, now);
        this.#logger.info({ digestId: digest.id, by: caller.userId }, 'digest paused');
        return { action, digest: paused, changed: true };
      }
      case 'resume': {
        if (digest.status === 'active') return { action, digest, changed: false };
        const next = nextRunAfter(digest.schedule, now);
        if (next === undefined) {
          throw new ParseError(
            'bad_schedule',
            scheduleNeverRunsText(digest.schedule.expression),
            digest.schedule.expression,
          );
        }
        const resumed = await this.#db.digests.resume(digest.id, now, next);
        this.#logger.info({ digestId: digest.id, by: caller.userId }, 'digest resumed');
        return { action, digest: resumed, changed: true };
      }
      case 'remove': {
        if (!(await this.#db.digests.remove(digest.id))) throw new DigestNotFoundError(digest.id);
        this.#logger.info({ digestId: digest.id, by: caller.userId }, 'digest removed');
        return { action, digest };
      }
      case 'run': {
        await hooks.beforeRun?.(digest);
        const result = await this.#runNow(digest);
        return { action, digest: (await this.#db.digests.get(digest.id)) ?? digest, result };
      }
    }
  }
}
