/**
 * Versioned schema migrations for both adapters. Each runs once, in its own transaction, and is
 * recorded in `schema_migrations`; the adapters serialise concurrent migrators (SQLite: BEGIN
 * IMMEDIATE; PostgreSQL: a transaction-scoped advisory lock), so two instances starting at once,
 * or the release phase racing a web dyno, apply each migration exactly once.
 *
 * Append new migrations at the end of the list, each with a version above the last one (a new
 * table's statements for both dialects, its repository beside the others in store/); never edit
 * one that has shipped.
 */

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
}

/**
 * The pause reasons earlier versions stored in words, by a phrase each began with, and the code
 * (with its detail) each stands for. Both forms were written: the renderer's words, and the bare
 * `code: detail` of a runner built without words. The most specific phrase comes first.
 */
const wordedPauseReasons: readonly (readonly [phrase: string, code: string])[] = [
  ['the channel was archived', 'channel_unreachable:archived'],
  ['I am no longer a member of the channel', 'channel_unreachable:not_in_channel'],
  ['the channel no longer exists', 'channel_unreachable:not_found'],
  ['posting in the channel is restricted', 'channel_unreachable:restricted'],
  ['I cannot post in that conversation', 'channel_unreachable:direct_message'],
  ['I could not post in the channel', 'channel_unreachable'],
  ["the analytics service rejected this app's credentials", 'credentials_rejected'],
  ['a database in it is not accessible', 'access_denied'],
  ['a database in it no longer exists', 'unknown_database'],
  ['the analytics service did not accept its question', 'bad_request'],
  ['the analytics service was too busy', 'rate_limited'],
  ['the analytics service was unavailable', 'service_unavailable'],
  ['the analytics service took too long', 'timeout'],
  ['the analytics service could not be reached', 'network'],
  ['the analytics service sent an answer', 'invalid_response'],
  ['this workspace is no longer enabled', 'team_not_allowed'],
  ['Slack could not be reached', 'slack_call_failed'],
  ["Slack or the analytics service refused this app's configuration", 'config_invalid'],
  ...['archived', 'not_in_channel', 'not_found', 'restricted', 'direct_message'].map(
    (problem) => [`channel_unreachable: ${problem} (`, `channel_unreachable:${problem}`] as const,
  ),
  ...[
    'channel_unreachable',
    'credentials_rejected',
    'unauthorized',
    'access_denied',
    'unknown_database',
    'bad_request',
    'rate_limited',
    'service_unavailable',
    'timeout',
    'network',
    'invalid_response',
    'team_not_allowed',
    'slack_call_failed',
    'config_invalid',
  ].map((code) => [`${code} (`, code] as const),
];

const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Rewrites every worded pause reason as `failures:<count>:<code>[:<detail>]`; the count is the
 * digest's failures in a row, which is what the words said. Words no phrase matches become an
 * unknown cause. The same SQL runs on both adapters.
 */
const pauseReasonsAsCodes = `
  UPDATE digests SET paused_reason = 'failures:' || consecutive_failures || ':' || CASE
    ${wordedPauseReasons
      .map(
        ([phrase, code]) =>
          `WHEN paused_reason LIKE ${sqlText(`${phrase.replace(/[%_\\]/g, (c) => `\\${c}`)}%`)} ESCAPE '\\' THEN ${sqlText(code)}`,
      )
      .join('\n    ')}
    ELSE 'unknown' END
  WHERE paused_reason IS NOT NULL`;

/** The conference tables of migration 25; `instant` is how each dialect stores a time. */
const conferenceTables = (instant: string) => `
      CREATE TABLE conferences (
        id TEXT PRIMARY KEY,
        team_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        creator_id TEXT NOT NULL,
        spec TEXT NOT NULL,
        state TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'ended')),
        ended TEXT,
        stop_requested_at ${instant},
        next_run_at ${instant} NOT NULL,
        lease_owner TEXT,
        lease_until ${instant},
        created_at ${instant} NOT NULL,
        updated_at ${instant} NOT NULL
      );
      CREATE INDEX conferences_claim ON conferences (status, next_run_at, id);
      CREATE INDEX conferences_channel ON conferences (team_id, channel_id);
      CREATE TABLE conference_posts (
        conference_id TEXT NOT NULL REFERENCES conferences (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('posting', 'posted')),
        owner TEXT NOT NULL,
        started_at ${instant} NOT NULL,
        message_ts TEXT,
        PRIMARY KEY (conference_id, key)
      );
`;

/**
 * The agent conversations' tables of migration 27 (see `SqlAgentState`); `instant` is how each
 * dialect stores a time. A lookup's record is keyed by its thread: a later lookup there takes it.
 */
const agentTables = (instant: string) => `
      CREATE TABLE agent_conversations (
        channel TEXT PRIMARY KEY,
        expires_at ${instant} NOT NULL
      );
      CREATE INDEX agent_conversations_expiry ON agent_conversations (expires_at);
      CREATE TABLE agent_threads (
        channel TEXT NOT NULL,
        thread_ts TEXT NOT NULL,
        previous TEXT,
        titled INTEGER NOT NULL CHECK (titled IN (0, 1)),
        expires_at ${instant} NOT NULL,
        PRIMARY KEY (channel, thread_ts)
      );
      CREATE INDEX agent_threads_expiry ON agent_threads (expires_at);
      CREATE TABLE agent_lookups (
        channel TEXT NOT NULL,
        thread_ts TEXT NOT NULL,
        run_id TEXT NOT NULL UNIQUE,
        owner TEXT NOT NULL,
        expires_at ${instant} NOT NULL,
        stop_requested_at ${instant},
        PRIMARY KEY (channel, thread_ts)
      );
      CREATE INDEX agent_lookups_owner ON agent_lookups (owner);
      CREATE INDEX agent_lookups_expiry ON agent_lookups (expires_at);
`;

/** The conversations' last questions of migration 28 (see `SqlLastQuestions`). */
const lastQuestionsTable = (instant: string) => `
      CREATE TABLE last_questions (
        conversation TEXT PRIMARY KEY,
        request TEXT NOT NULL,
        expires_at ${instant} NOT NULL
      );
      CREATE INDEX last_questions_expiry ON last_questions (expires_at);
`;

/**
 * The canvas a digest keeps (see `CanvasRecords`): `canvas` 1 when it keeps one, the canvas the app
 * created and its kind, the last write's problem, the problems its creator was told about
 * (space-separated), and until when one runner holds the canvas's creation. Digests and
 * conferences created before keep none.
 */
const canvasColumns = (table: 'digests' | 'conferences', instant: string) => `
  ALTER TABLE ${table} ADD COLUMN canvas INTEGER NOT NULL DEFAULT 0 CHECK (canvas IN (0, 1));
  ALTER TABLE ${table} ADD COLUMN canvas_id TEXT;
  ALTER TABLE ${table} ADD COLUMN canvas_kind TEXT CHECK (canvas_kind IN ('channel', 'standalone'));
  ALTER TABLE ${table} ADD COLUMN canvas_problem TEXT;
  ALTER TABLE ${table} ADD COLUMN canvas_told TEXT;
  ALTER TABLE ${table} ADD COLUMN canvas_creating_until ${instant};
`;

/**
 * The installations of migration 29 (see `SqlInstallations`): one row per workspace or org-wide
 * install, its tokens sealed under the key `key_id` names (NULL once uninstalled: no token is left),
 * `version` moved by every write so a re-seal never overwrites a newer one, and the refresh lease.
 * Each workspace's analytics account is a row of its own, with its own key, deleted with it.
 */
const installationTables = (instant: string) => `
      CREATE TABLE installations (
        id TEXT PRIMARY KEY,
        team_id TEXT,
        team_name TEXT,
        enterprise_id TEXT,
        enterprise_name TEXT,
        enterprise_url TEXT,
        is_enterprise_install INTEGER NOT NULL CHECK (is_enterprise_install IN (0, 1)),
        app_id TEXT,
        auth_version TEXT NOT NULL CHECK (auth_version IN ('v1', 'v2')),
        bot_id TEXT,
        bot_user_id TEXT,
        bot_scopes TEXT,
        bot_token TEXT,
        bot_refresh_token TEXT,
        bot_expires_at ${instant},
        user_id TEXT NOT NULL,
        user_scopes TEXT,
        user_token TEXT,
        user_refresh_token TEXT,
        user_expires_at ${instant},
        key_id TEXT,
        version INTEGER NOT NULL,
        installed_at ${instant} NOT NULL,
        updated_at ${instant} NOT NULL,
        uninstalled_at ${instant},
        purge_at ${instant},
        refresh_owner TEXT,
        refresh_until ${instant}
      );
      CREATE INDEX installations_key ON installations (key_id);
      CREATE INDEX installations_purge ON installations (purge_at);
      CREATE TABLE installation_analytics (
        installation_id TEXT PRIMARY KEY REFERENCES installations (id) ON DELETE CASCADE,
        client_id TEXT NOT NULL,
        client_secret TEXT NOT NULL,
        key_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        updated_at ${instant} NOT NULL
      );
      CREATE INDEX installation_analytics_key ON installation_analytics (key_id);
`;

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
  {
    version: 3,
    name: 'pause reasons and schedules as codes and data',
    sqlite: `
      ${pauseReasonsAsCodes};
      UPDATE digests SET schedule = json_remove(schedule, '$.description');
    `,
    postgres: `
      ${pauseReasonsAsCodes};
      UPDATE digests SET schedule = schedule - 'description';
    `,
  },
  {
    version: 4,
    name: 'outages: workspaces whose digests are on hold',
    sqlite: `
      CREATE TABLE digest_outages (
        team_id TEXT PRIMARY KEY,
        cause TEXT NOT NULL,
        since INTEGER NOT NULL,
        probe_at INTEGER NOT NULL,
        probes INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX digests_team ON digests (team_id, status);
    `,
    postgres: `
      CREATE TABLE digest_outages (
        team_id TEXT PRIMARY KEY,
        cause TEXT NOT NULL,
        since TIMESTAMPTZ NOT NULL,
        probe_at TIMESTAMPTZ NOT NULL,
        probes INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX digests_team ON digests (team_id, status);
    `,
  },
  {
    version: 5,
    name: 'when a digest posts: always, only when changed, only new',
    sqlite: `ALTER TABLE digests ADD COLUMN post_when TEXT NOT NULL DEFAULT 'always'
      CHECK (post_when IN ('always', 'changed', 'new'));`,
    postgres: `ALTER TABLE digests ADD COLUMN post_when TEXT NOT NULL DEFAULT 'always'
      CHECK (post_when IN ('always', 'changed', 'new'));`,
  },
  {
    version: 6,
    name: 'the metric a digest ranks by, and how it shows its ranking',
    sqlite: `
      ALTER TABLE digests ADD COLUMN metric TEXT;
      ALTER TABLE digests ADD COLUMN presentation TEXT NOT NULL DEFAULT 'list'
        CHECK (presentation IN ('list', 'table', 'chart'));
    `,
    postgres: `
      ALTER TABLE digests ADD COLUMN metric TEXT;
      ALTER TABLE digests ADD COLUMN presentation TEXT NOT NULL DEFAULT 'list'
        CHECK (presentation IN ('list', 'table', 'chart'));
    `,
  },
  {
    version: 7,
    name: 'due digests indexed in the order a claim takes them',
    sqlite: `
      CREATE INDEX digests_claim ON digests (status, next_run_at, id);
      DROP INDEX digests_due;
      CREATE INDEX digests_team_claim ON digests (team_id, status, next_run_at, id);
      DROP INDEX digests_team;
    `,
    postgres: `
      CREATE INDEX digests_claim ON digests (status, next_run_at, id);
      DROP INDEX digests_due;
      CREATE INDEX digests_team_claim ON digests (team_id, status, next_run_at, id);
      DROP INDEX digests_team;
    `,
  },
  {
    version: 8,
    name: 'due digests indexed with those of one slot grouped by the question they ask',
    sqlite: `
      CREATE INDEX digests_claim_by_question
        ON digests (status, next_run_at, databases, top, metric, run_window, schedule, id);
      DROP INDEX digests_claim;
    `,
    // One digest of many databases or long phrases would pass the size of a B-tree entry:
    // PostgreSQL groups by a digest of those columns instead.
    postgres: `
      CREATE INDEX digests_claim_by_question ON digests (status, next_run_at,
        md5(databases::text || ' ' || top::text || ' ' || coalesce(metric, '') || ' '
          || run_window::text || ' ' || schedule::text), id);
      DROP INDEX digests_claim;
    `,
  },
  {
    version: 9,
    name: 'unconfirmed posts: whether the creator was told, and who chose to post again',
    // Records left `posting` by earlier versions count as told: they were logged and listed as
    // unconfirmed then, and may be months old.
    sqlite: `
      ALTER TABLE digest_deliveries ADD COLUMN noticed_at INTEGER;
      ALTER TABLE digest_deliveries ADD COLUMN repost_by TEXT;
      UPDATE digest_deliveries SET noticed_at = started_at WHERE status = 'posting';
      CREATE INDEX digest_deliveries_untold ON digest_deliveries (started_at)
        WHERE status = 'posting' AND noticed_at IS NULL;
    `,
    postgres: `
      ALTER TABLE digest_deliveries ADD COLUMN noticed_at TIMESTAMPTZ;
      ALTER TABLE digest_deliveries ADD COLUMN repost_by TEXT;
      UPDATE digest_deliveries SET noticed_at = started_at WHERE status = 'posting';
      CREATE INDEX digest_deliveries_untold ON digest_deliveries (started_at)
        WHERE status = 'posting' AND noticed_at IS NULL;
    `,
  },
  {
    version: 10,
    name: 'the one account a watch follows',
    sqlite: 'ALTER TABLE digests ADD COLUMN account TEXT;',
    postgres: 'ALTER TABLE digests ADD COLUMN account TEXT;',
  },
  {
    version: 11,
    name: 'run history: one record per slot, with its window and top N',
    // `run` holds the window, the top N and who entered or left, as `DigestRunDetails`.
    sqlite: `
      CREATE TABLE digest_runs (
        digest_id TEXT NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
        slot INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('posted', 'skipped', 'failed')),
        reason TEXT,
        run TEXT,
        recorded_at INTEGER NOT NULL,
        PRIMARY KEY (digest_id, slot)
      );
    `,
    postgres: `
      CREATE TABLE digest_runs (
        digest_id TEXT NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
        slot TIMESTAMPTZ NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('posted', 'skipped', 'failed')),
        reason TEXT,
        run JSONB,
        recorded_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (digest_id, slot)
      );
    `,
  },
  {
    version: 12,
    name: 'who a digest keeps, and ranking by followers',
    sqlite: `
      ALTER TABLE digests ADD COLUMN stakeholders TEXT;
      ALTER TABLE digests ADD COLUMN order_by TEXT CHECK (order_by IN ('followers'));
    `,
    postgres: `
      ALTER TABLE digests ADD COLUMN stakeholders JSONB;
      ALTER TABLE digests ADD COLUMN order_by TEXT CHECK (order_by IN ('followers'));
    `,
  },
  {
    version: 20,
    name: "a digest's channel canvas: whether it keeps one, which, and what went wrong",
    sqlite: canvasColumns('digests', 'INTEGER'),
    postgres: canvasColumns('digests', 'TIMESTAMPTZ'),
  },
  {
    version: 25,
    name: 'conferences: live leaderboards and the posts each made',
    // What the engine keeps between updates is one JSON document (`state`): only the columns a
    // claim or a list reads are columns. A post's record is written before it is sent, so a
    // post is never sent twice (see `ConferenceRepository.beginPost`).
    sqlite: conferenceTables('INTEGER'),
    postgres: conferenceTables('TIMESTAMPTZ'),
  },
  {
    version: 26,
    name: "a conference's channel canvas: whether it keeps one, which, and what went wrong",
    sqlite: canvasColumns('conferences', 'INTEGER'),
    postgres: canvasColumns('conferences', 'TIMESTAMPTZ'),
  },
  {
    version: 27,
    name: 'agent conversations, their threads and the lookups running in them',
    sqlite: agentTables('INTEGER'),
    postgres: agentTables('TIMESTAMPTZ'),
  },
  {
    version: 28,
    name: "each conversation's last question, which a follow-up keeps the window of",
    sqlite: lastQuestionsTable('INTEGER'),
    postgres: lastQuestionsTable('TIMESTAMPTZ'),
  },
  {
    version: 29,
    name: 'conference posts never confirmed: when the creator was told',
    // A post left `posting` by an instance that died is looked for in the channel by the next;
    // when Slack cannot say, its creator is told once (see `ConferenceRepository.noticePost`).
    sqlite: 'ALTER TABLE conference_posts ADD COLUMN noticed_at INTEGER;',
    postgres: 'ALTER TABLE conference_posts ADD COLUMN noticed_at TIMESTAMPTZ;',
  },
  {
    version: 30,
    name: 'runs skipped as too late: whether the creator was told',
    // Skips recorded by earlier versions count as told: their runner told of them (or could not)
    // right after its tick, and they may be months old.
    sqlite: `
      UPDATE digest_deliveries SET noticed_at = started_at
        WHERE status = 'skipped' AND noticed_at IS NULL;
      CREATE INDEX digest_deliveries_late_untold ON digest_deliveries (digest_id)
        WHERE status = 'skipped' AND error_code = 'missed' AND noticed_at IS NULL;
    `,
    postgres: `
      UPDATE digest_deliveries SET noticed_at = started_at
        WHERE status = 'skipped' AND noticed_at IS NULL;
      CREATE INDEX digest_deliveries_late_untold ON digest_deliveries (digest_id)
        WHERE status = 'skipped' AND error_code = 'missed' AND noticed_at IS NULL;
    `,
  },
  {
    version: 31,
    name: 'installations: sealed tokens per workspace, its analytics account, the refresh lease',
    sqlite: installationTables('INTEGER'),
    postgres: installationTables('TIMESTAMPTZ'),
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
