/**
 * Scheduled digests as every surface runs them: the database, the runner and its timer, and the
 * rules people act through (`DigestManager`), composed once. The Slack app, the local console and
 * `digests run-due` each build one; the app opens the database before it listens, starts the
 * timer once it listens, and stops both on shutdown.
 */
import type { AnalyticsApi } from '../analytics/types.ts';
import type { DigestPolicy } from '../config/sections.ts';
import { systemClock } from '../digests/clock.ts';
import type {
  ConferenceRunner,
  ConferenceRunnerOptions,
  ConferenceTickReport,
} from '../digests/conferences/runner.ts';
import { JobTimer } from '../digests/job-timer.ts';
import type { Outlets } from '../digests/outlets.ts';
import type { Clock, DigestRunner, DigestRunnerOptions } from '../digests/runner.ts';
import { StoreHealth, type StoreHealthReport } from '../digests/store-health.ts';
import type { TickReport } from '../digests/tick.ts';
import type { Logger } from '../logger.ts';
import { defined } from '../model/defined.ts';
import type { WorkspaceGone } from '../model/digest.ts';
import type { Database } from '../store/database.ts';
import { timedOut, within } from '../time/within.ts';
import { createConferenceRunner } from './conference-commands.ts';
import { ConferenceManager } from './conference-manager.ts';
import type { CanvasHistory } from './digest-canvas.ts';
import { DigestManager } from './digest-manager.ts';
import { createDigestRunner } from './digest-runner.ts';

export interface DigestServiceOptions {
  /** Opens (and migrates) the database; called once, by `open()`. */
  readonly openDatabase: () => Promise<Database>;
  readonly analytics: AnalyticsApi;
  /**
   * Where each workspace's digests and conferences post, how creators are named, where canvases
   * go; without conference posters no conference runs here, without canvas writers no canvas is
   * kept.
   */
  readonly outlets: Outlets;
  readonly policy: DigestPolicy;
  readonly logger: Logger;
  /** The clock of commands (schedule validation, next runs); default the system clock. */
  readonly now?: () => Date;
  /** The runner's clock; default the system clock. */
  readonly clock?: Clock;
  readonly runnerOptions?: DigestRunnerOptions;
  /** The earlier runs a canvas lists; by default from the run history. */
  readonly canvasHistory?: CanvasHistory;
  /** Finer conference engine settings (tests, benchmarks). */
  readonly conferenceOptions?: ConferenceRunnerOptions;
}

/** What one tick of every job did. */
export interface JobsReport {
  readonly digests: TickReport;
  /** Absent where no conference runs (no conference outlet). */
  readonly conferences?: ConferenceTickReport;
}

/** How long closing the store may take at least, even when the tick used up the budget. */
const storeCloseGraceMs = 1_000;

/**
 * How often a workspace's requests make the service look for its digests paused because the app
 * had left it: requests are many, and a minute is soon enough to resume them.
 */
export const workspaceActivityCheckMs = 60_000;

/** `work` with its failure ignored: shutdown only needs to know that it ended. */
function settled(work: Promise<unknown>): Promise<void> {
  return work.then(
    () => undefined,
    () => undefined,
  );
}

export class DigestService {
  readonly logger: Logger;
  readonly now: () => Date;
  readonly #options: DigestServiceOptions;
  readonly #clock: Clock;
  #database: Database | undefined;
  #runner: DigestRunner | undefined;
  #manager: DigestManager | undefined;
  #conferences: ConferenceManager | undefined;
  #health: StoreHealth | undefined;
  #conferenceRunner: ConferenceRunner | undefined;
  #conferenceJob: JobTimer | undefined;
  #timerStopped: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  /** When each workspace's requests last made the service look (clock ms). */
  readonly #activityChecks = new Map<string, number>();

  constructor(options: DigestServiceOptions) {
    this.#options = options;
    this.logger = options.logger;
    this.now = options.now ?? (() => new Date());
    this.#clock = options.clock ?? systemClock;
  }

  get manager(): DigestManager {
    return opened(this.#manager);
  }

  /** Conferences, when a Slack outlet was given; after `open()`. */
  get conferences(): ConferenceManager | undefined {
    return this.#conferences;
  }

  get runner(): DigestRunner {
    return opened(this.#runner);
  }

  get database(): Database {
    return opened(this.#database);
  }

  /** Opens the database (migrations included) and builds the runner; before the app listens. */
  async open(): Promise<void> {
    if (this.#database !== undefined) return;
    const database = await this.#options.openDatabase();
    this.#openConferences(database);
    const runner = createDigestRunner({
      db: database,
      analytics: this.#options.analytics,
      outlets: this.#options.outlets,
      logger: this.logger,
      policy: this.#options.policy,
      ...defined({ canvasHistory: this.#options.canvasHistory }),
      ...defined({ clock: this.#options.clock }),
      ...defined({ runnerOptions: this.#options.runnerOptions }),
    });
    this.#database = database;
    this.#runner = runner;
    this.#health = new StoreHealth({ ping: () => database.ping(), logger: this.logger });
    this.#manager = new DigestManager({
      db: database,
      analytics: this.#options.analytics,
      runNow: (digest) => runner.runNow(digest),
      postUnconfirmed: (digest, slot, person) => runner.postUnconfirmed(digest, slot, person),
      now: this.now,
      logger: this.logger,
    });
  }

  /** The conference engine and its rules: a job of its own, on a timer of its own. */
  #openConferences(database: Database): void {
    const { conferencePosters: posters, canvasWriters } = this.#options.outlets;
    if (posters === undefined) return;
    const runner = createConferenceRunner({
      db: database,
      analytics: this.#options.analytics,
      posters,
      logger: this.logger.child({ component: 'conferences' }),
      ...defined({
        clock: this.#options.clock,
        options: this.#options.conferenceOptions,
        canvasWriters,
      }),
    });
    this.#conferences = new ConferenceManager({
      conferences: database.conferences,
      runner,
      analytics: this.#options.analytics,
      now: this.now,
      logger: this.logger,
    });
    this.#conferenceJob = new JobTimer({
      job: { name: 'conference', runDue: () => this.runConferences(this.#clock.now()) },
      tickMs: this.#options.policy.tickMs,
      logger: this.logger,
    });
    this.#conferenceRunner = runner;
  }

  /** One tick of the conferences' job; undefined where no conference runs. */
  runConferences(now: Date): Promise<ConferenceTickReport | undefined> {
    return this.#conferenceRunner?.runDue(now) ?? Promise.resolve(undefined);
  }

  /**
   * One tick of every job, one after the other (`jobs run-due`, tests): the digests, then the
   * conferences. A conference tick that fails is logged; the digests' report stands.
   */
  async runDue(now: Date): Promise<JobsReport> {
    const digests = await this.runner.runDue(now);
    const conferences = await this.runConferences(now).catch((error: unknown) => {
      this.logger.error({ err: error }, 'conference tick failed');
      return undefined;
    });
    return { digests, ...defined({ conferences }) };
  }

  /**
   * Whether the store answers now, for `/healthz`: within about two seconds, whatever the store
   * does. While it does not, commands that need it say so and lookups go on.
   */
  storeHealth(): Promise<StoreHealthReport> {
    return this.#health?.check() ?? Promise.resolve({ ok: false, reason: 'not open yet' });
  }

  /**
   * Slack says the app left a workspace (`app_uninstalled`, or its bot token in
   * `tokens_revoked`): its digests pause with that reason until the app works there again.
   */
  async workspaceLeft(teamId: string, kind: WorkspaceGone): Promise<void> {
    this.#activityChecks.delete(teamId);
    await this.runner.workspaces.left(teamId, kind);
  }

  /**
   * A request came from the workspace, so the app works there: digests paused because it had
   * left resume, and their creators are told. Looks at most once a minute per workspace.
   */
  async workspaceActive(teamId: string): Promise<void> {
    const now = this.now().getTime();
    const checked = this.#activityChecks.get(teamId);
    if (checked !== undefined && now - checked < workspaceActivityCheckMs) return;
    if (this.#activityChecks.size >= 10_000) this.#activityChecks.clear();
    this.#activityChecks.set(teamId, now);
    await this.runner.workspaces.back(teamId);
  }

  /** Starts the in-app timer unless the policy leaves scheduling to a platform scheduler. */
  startTimer(): boolean {
    if (!this.#options.policy.timerEnabled) {
      this.logger.info(
        'digest timer disabled (DIGESTS_ENABLED=false): run `npm run digests:run-due` on a schedule',
      );
      return false;
    }
    this.runner.start();
    this.#conferenceJob?.start();
    this.logger.info(
      { tickMs: this.#options.policy.tickMs, dialect: this.database.dialect },
      'digest timer started',
    );
    return true;
  }

  /**
   * Stops the timer; resolves once the tick in flight (if any) has finished. A tick cut short by
   * the shutdown deadline loses nothing: its claims expire and another instance or the next start
   * takes them, and per-slot records keep anything already posted from being posted again.
   */
  stopTimer(): Promise<void> {
    this.#timerStopped ??= Promise.all([this.#runner?.stop(), this.#conferenceJob?.stop()]).then(
      () => undefined,
    );
    return this.#timerStopped;
  }

  /**
   * Stops the timer and closes the store, within `budgetMs`; after the lookups and button work in
   * flight have drained, since they may still write to the store.
   */
  close(budgetMs: number): Promise<void> {
    this.#closing ??= (async () => {
      const started = Date.now();
      if ((await within(settled(this.stopTimer()), budgetMs)) === timedOut) {
        this.logger.warn('a digest tick was still running at shutdown; its claims will expire');
      }
      const left = Math.max(storeCloseGraceMs, budgetMs - (Date.now() - started));
      if (
        this.#database !== undefined &&
        (await within(settled(this.#database.close()), left)) === timedOut
      ) {
        this.logger.warn('the digest store did not close in time');
      }
    })();
    return this.#closing;
  }
}

/** A part `open()` builds, once it has. */
function opened<T>(part: T | undefined): T {
  // Not an AppError: a wiring bug, since open() runs before any request is served.
  if (part === undefined) throw new Error('the digest store is not open yet');
  return part;
}
