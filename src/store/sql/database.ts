/**
 * The database over one dialect's executor: every repository shares its connection (SQLite) or
 * its pool (PostgreSQL), so a transaction of one never waits on another's connection.
 */
import type { CanvasRepository } from '../canvases.ts';
import type { Database, Dialect } from '../database.ts';
import { SqlAgentState } from './agent-state.ts';
import { SqlCanvasRecords } from './canvases.ts';
import { SqlConferences } from './conferences.ts';
import { SqlDigests } from './digests.ts';
import type { SqlExecutor } from './executor.ts';
import { SqlInstallationStorage } from './installations.ts';
import { SqlLastQuestions } from './last-questions.ts';
import { SqlOutages } from './outages.ts';
import { SqlRuns } from './runs.ts';
import { SqlSightings } from './sightings.ts';

export class SqlDatabase implements Database {
  readonly dialect: Dialect;
  readonly digests: SqlDigests;
  readonly runs: SqlRuns;
  readonly outages: SqlOutages;
  readonly conferences: SqlConferences;
  readonly canvases: CanvasRepository;
  readonly sightings: SqlSightings;
  readonly agentState: SqlAgentState;
  readonly lastQuestions: SqlLastQuestions;
  readonly installations: SqlInstallationStorage;
  readonly #sql: SqlExecutor;

  constructor(executor: SqlExecutor) {
    this.#sql = executor;
    this.dialect = executor.dialect;
    this.digests = new SqlDigests(executor);
    this.runs = new SqlRuns(executor);
    this.outages = new SqlOutages(executor);
    this.conferences = new SqlConferences(executor);
    this.canvases = {
      digests: new SqlCanvasRecords(executor, 'digests'),
      conferences: new SqlCanvasRecords(executor, 'conferences'),
    };
    this.sightings = new SqlSightings(executor);
    this.agentState = new SqlAgentState(executor);
    this.lastQuestions = new SqlLastQuestions(executor);
    this.installations = new SqlInstallationStorage(executor);
  }

  migrate(): Promise<number> {
    return this.#sql.migrate();
  }

  async ping(): Promise<void> {
    await this.#sql.query('SELECT 1');
  }

  close(): Promise<void> {
    return this.#sql.close();
  }
}
