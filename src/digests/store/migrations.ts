/**
 * Versioned schema migrations for both adapters. Each runs once, in its own transaction, and is
 * recorded in `schema_migrations`; the adapters serialise concurrent migrators (SQLite: BEGIN
 * IMMEDIATE; PostgreSQL: a transaction-scoped advisory lock), so two instances starting at once,
 * or the release phase racing a web dyno, apply each migration exactly once.
 *
 * Append new migrations; never edit one that has shipped.
 */

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'digests and deliveries',
    sqlite: `
      CREATE TABLE digests (
        id TEXT PRIMARY KEY,
        team_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        creator_id TEXT NOT NULL,
        databases TEXT NOT NULL,
        schedule TEXT NOT NULL,
        run_window TEXT NOT NULL,
        top INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'paused')),
        paused_reason TEXT,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        next_run_at INTEGER NOT NULL,
        lease_owner TEXT,
        lease_until INTEGER,
        last_run_slot INTEGER,
        last_run_outcome TEXT,
        last_run_at INTEGER,
        last_run_error TEXT,
        last_run_ts TEXT,
        last_ranking TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX digests_due ON digests (status, next_run_at);
      CREATE INDEX digests_channel ON digests (team_id, channel_id);
      CREATE INDEX digests_creator ON digests (team_id, creator_id);
      CREATE TABLE digest_deliveries (
        digest_id TEXT NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
        slot INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('posting', 'posted', 'failed', 'skipped')),
        owner TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        message_ts TEXT,
        error_code TEXT,
        skipped_count INTEGER,
        PRIMARY KEY (digest_id, slot)
      );
    `,
    postgres: `
      CREATE TABLE digests (
        id TEXT PRIMARY KEY,
        team_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        creator_id TEXT NOT NULL,
        databases JSONB NOT NULL,
        schedule JSONB NOT NULL,
        run_window JSONB NOT NULL,
        top INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'paused')),
        paused_reason TEXT,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        next_run_at TIMESTAMPTZ NOT NULL,
        lease_owner TEXT,
        lease_until TIMESTAMPTZ,
        last_run_slot TIMESTAMPTZ,
        last_run_outcome TEXT,
        last_run_at TIMESTAMPTZ,
        last_run_error TEXT,
        last_run_ts TEXT,
        last_ranking JSONB,
        created_at TIMESTAMPTZ NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX digests_due ON digests (status, next_run_at);
      CREATE INDEX digests_channel ON digests (team_id, channel_id);
      CREATE INDEX digests_creator ON digests (team_id, creator_id);
      CREATE TABLE digest_deliveries (
        digest_id TEXT NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
        slot TIMESTAMPTZ NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('posting', 'posted', 'failed', 'skipped')),
        owner TEXT NOT NULL,
        started_at TIMESTAMPTZ NOT NULL,
        finished_at TIMESTAMPTZ,
        message_ts TEXT,
        error_code TEXT,
        skipped_count INTEGER,
        PRIMARY KEY (digest_id, slot)
      );
    `,
  },
  {
    version: 2,
    name: 'seen keys',
    sqlite: `
      CREATE TABLE seen_keys (
        key TEXT PRIMARY KEY,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX seen_keys_expiry ON seen_keys (expires_at);
    `,
    postgres: `
      CREATE TABLE seen_keys (
        key TEXT PRIMARY KEY,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX seen_keys_expiry ON seen_keys (expires_at);
    `,
  },
];

export const schemaMigrationsTable = {
  sqlite: `CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`,
  postgres: `CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
} as const;
