/** A database seen through a test's proxies. */
import type { Database } from '../../src/store/database.ts';

/** The repositories of a {@link Database}, by name. */
type Repositories = Pick<
  Database,
  | 'digests'
  | 'runs'
  | 'outages'
  | 'conferences'
  | 'canvases'
  | 'sightings'
  | 'agentState'
  | 'lastQuestions'
  | 'installations'
>;

/**
 * `db` with some of its repositories replaced (a test's proxy that counts, delays or refuses
 * calls), the others, its dialect and its methods as they are.
 */
export function withRepositories(db: Database, replaced: Partial<Repositories>): Database {
  return {
    dialect: db.dialect,
    digests: replaced.digests ?? db.digests,
    runs: replaced.runs ?? db.runs,
    outages: replaced.outages ?? db.outages,
    conferences: replaced.conferences ?? db.conferences,
    canvases: replaced.canvases ?? db.canvases,
    sightings: replaced.sightings ?? db.sightings,
    agentState: replaced.agentState ?? db.agentState,
    lastQuestions: replaced.lastQuestions ?? db.lastQuestions,
    installations: replaced.installations ?? db.installations,
    migrate: () => db.migrate(),
    ping: () => db.ping(),
    close: () => db.close(),
  };
}
