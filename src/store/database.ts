/**
 * The app's database: one connection (an embedded SQLite file by default, PostgreSQL at scale),
 * its migrations, and one repository per concern. Every repository is held to one contract suite
 * on both dialects; a feature folder takes the repositories it needs and never sees a table.
 *
 * Every method of every repository, like `ping`, throws `DigestStoreUnavailableError` when the
 * database does not answer (a connection or statement timed out, the connection was refused or
 * closed).
 */
import type { AgentState } from './agent-state.ts';
import type { CanvasRepository } from './canvases.ts';
import type { ConferenceRepository } from './conferences.ts';
import type { DigestRepository } from './digests.ts';
import type { InstallationStorage } from './installations.ts';
import type { LastQuestionRepository } from './last-questions.ts';
import type { OutageRepository } from './outages.ts';
import type { RunRepository } from './runs.ts';
import type { SightingRepository } from './sightings.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  readonly dialect: Dialect;
  readonly digests: DigestRepository;
  readonly runs: RunRepository;
  readonly outages: OutageRepository;
  readonly conferences: ConferenceRepository;
  readonly canvases: CanvasRepository;
  readonly sightings: SightingRepository;
  /** The Messages tab's agent conversations, their threads and the agent lookups running now. */
  readonly agentState: AgentState;
  /** Each DM's last question, which a follow-up there keeps the window and options of. */
  readonly lastQuestions: LastQuestionRepository;
  /** The app's installations, opened with the keys that seal their credentials. */
  readonly installations: InstallationStorage;
  /** Applies pending migrations; returns how many ran. Safe with several instances at once. */
  migrate(): Promise<number>;
  /** Resolves once the database answers a trivial statement (for `/healthz`). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
