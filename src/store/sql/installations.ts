/**
 * The installations in SQL (`installations`, `installation_analytics`), the same statements on both
 * dialects. Credentials are sealed before they reach a statement, so no driver error or statement
 * log can hold one in the clear. Every write moves the row's `version`, which a re-seal checks, so
 * a rotation never overwrites a newer write with an older token.
 */
import type { Keyring } from '../../config/encryption-keys.ts';
import { SealedValueError } from '../../errors.ts';
import {
  type AnalyticsAccount,
  type Installation,
  type InstallationPolicy,
  type InstallationQuery,
  type InstallationRepository,
  type InstallationStorage,
  installationId,
  type KeyRotation,
  type PurgedInstallation,
  queryOf,
  type StoredInstallation,
} from '../installations.ts';
import { seal } from '../sealing.ts';
import type { SqlExecutor, SqlRow, SqlScalar } from './executor.ts';
import {
  installationColumns,
  installationValues,
  openTokens,
  rowToAccount,
  rowToInstallation,
  sealAccount,
  sealContext,
  tokenColumns,
} from './installation-rows.ts';

type Sql = Pick<SqlExecutor, 'query' | 'transaction'>;

/** Rows read per statement while re-sealing. */
const rotationBatch = 100;
/** A row re-sealed while another write keeps changing it is tried this many times, then left. */
const rotationAttempts = 3;

export class SqlInstallationStorage implements InstallationStorage {
  readonly #sql: Sql;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  sealedWith(keyring: Keyring, policy: InstallationPolicy): InstallationRepository {
    return new SqlInstallations(this.#sql, keyring, policy);
  }
}

/** The rows a query may be served from, most specific first (see `fetchInstallation`). */
function candidateIds(query: InstallationQuery): string[] {
  const own = installationId(query);
  const organization =
    !query.isEnterpriseInstall && query.enterpriseId
      ? installationId({ enterpriseId: query.enterpriseId, isEnterpriseInstall: true })
      : undefined;
  return [own, organization].filter((id) => id !== undefined);
}

const placeholders = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

export class SqlInstallations implements InstallationRepository {
  readonly #sql: Sql;
  readonly #keyring: Keyring;
  readonly #policy: InstallationPolicy;

  constructor(sql: Sql, keyring: Keyring, policy: InstallationPolicy) {
    this.#sql = sql;
    this.#keyring = keyring;
    this.#policy = policy;
  }

  async storeInstallation(installation: Installation, now: Date): Promise<void> {
    const id = this.#idOf(queryOf(installation));
    const columns = [
      'id',
      ...installationColumns,
      'key_id',
      'version',
      'installed_at',
      'updated_at',
    ];
    const values: SqlScalar[] = [
      id,
      ...installationValues(installation, id, this.#keyring.current),
      this.#keyring.current.id,
      1,
      now,
      now,
    ];
    const replaced = [...installationColumns, 'key_id', 'installed_at', 'updated_at'];
    await this.#sql.transaction(async (tx) => {
      // Past its retention a workspace starts afresh, even before the purge came by.
      await tx.query('DELETE FROM installations WHERE id = $1 AND purge_at <= $2', [id, now]);
      await tx.query(
        `INSERT INTO installations (${columns.join(', ')})
         VALUES (${placeholders(1, columns.length)})
         ON CONFLICT (id) DO UPDATE SET
           ${replaced.map((column) => `${column} = excluded.${column}`).join(',\n           ')},
           version = installations.version + 1,
           uninstalled_at = NULL, purge_at = NULL, refresh_owner = NULL, refresh_until = NULL`,
        values,
      );
    });
  }

  async fetchInstallation(query: InstallationQuery): Promise<StoredInstallation | undefined> {
    const row = await this.#liveRow(query);
    return row === undefined ? undefined : rowToInstallation(row, this.#keyring);
  }

  async deleteInstallation(query: InstallationQuery, now: Date): Promise<boolean> {
    const id = this.#idOf(query);
    if (this.#policy.retentionMs === 0) {
      const rows = await this.#sql.query(
        'DELETE FROM installations WHERE id = $1 RETURNING uninstalled_at',
        [id],
      );
      return rows.some((row) => row.uninstalled_at === null || row.uninstalled_at === undefined);
    }
    const rows = await this.#sql.query(
      `UPDATE installations SET
         ${tokenColumns.map((column) => `${column} = NULL`).join(', ')},
         key_id = NULL, version = version + 1, updated_at = $2,
         uninstalled_at = $2, purge_at = $3, refresh_owner = NULL, refresh_until = NULL
       WHERE id = $1 AND uninstalled_at IS NULL
       RETURNING id`,
      [id, now, new Date(now.getTime() + this.#policy.retentionMs)],
    );
    return rows.length > 0;
  }

  async claimRefresh(
    query: InstallationQuery,
    owner: string,
    now: Date,
    leaseMs: number,
  ): Promise<boolean> {
    const rows = await this.#sql.query(
      `UPDATE installations SET refresh_owner = $2, refresh_until = $3
       WHERE id = $1 AND uninstalled_at IS NULL
         AND (refresh_owner IS NULL OR refresh_owner = $2 OR refresh_until <= $4)
       RETURNING id`,
      [this.#idOf(query), owner, new Date(now.getTime() + leaseMs), now],
    );
    return rows.length > 0;
  }

  async storeRefreshed(installation: Installation, owner: string, now: Date): Promise<boolean> {
    const id = this.#idOf(queryOf(installation));
    const values = installationValues(installation, id, this.#keyring.current);
    const rows = await this.#sql.query(
      `UPDATE installations SET
         ${installationColumns.map((column, i) => `${column} = $${i + 4}`).join(', ')},
         key_id = $3, version = version + 1, updated_at = $${installationColumns.length + 4},
         refresh_owner = NULL, refresh_until = NULL
       WHERE id = $1 AND refresh_owner = $2 AND uninstalled_at IS NULL
       RETURNING id`,
      [id, owner, this.#keyring.current.id, ...values, now],
    );
    return rows.length > 0;
  }

  async releaseRefresh(query: InstallationQuery, owner: string): Promise<void> {
    await this.#sql.query(
      `UPDATE installations SET refresh_owner = NULL, refresh_until = NULL
       WHERE id = $1 AND refresh_owner = $2`,
      [this.#idOf(query), owner],
    );
  }

  async analyticsAccount(query: InstallationQuery): Promise<AnalyticsAccount | undefined> {
    const live = await this.#liveRow(query);
    if (live === undefined) return undefined;
    const [row] = await this.#sql.query(
      'SELECT * FROM installation_analytics WHERE installation_id = $1',
      [live.id as string],
    );
    return row === undefined ? undefined : rowToAccount(row, this.#keyring);
  }

  async setAnalyticsAccount(
    query: InstallationQuery,
    account: AnalyticsAccount,
    now: Date,
  ): Promise<boolean> {
    const key = this.#keyring.current;
    return this.#sql.transaction(async (tx) => {
      const ids = candidateIds(query);
      const live = this.#preferred(
        query,
        await tx.query(
          `SELECT id FROM installations WHERE id IN (${placeholders(1, ids.length)})
             AND uninstalled_at IS NULL`,
          ids,
        ),
      );
      if (live === undefined) return false;
      const id = String(live.id);
      const sealed = sealAccount(account, id, key);
      await tx.query(
        `INSERT INTO installation_analytics
           (installation_id, client_id, client_secret, key_id, version, updated_at)
         VALUES ($1, $2, $3, $4, 1, $5)
         ON CONFLICT (installation_id) DO UPDATE SET client_id = excluded.client_id,
           client_secret = excluded.client_secret, key_id = excluded.key_id,
           version = installation_analytics.version + 1, updated_at = excluded.updated_at`,
        [id, sealed.clientId, sealed.clientSecret, key.id, now],
      );
      return true;
    });
  }

  async purgeExpired(now: Date): Promise<PurgedInstallation[]> {
    const rows = await this.#sql.query(
      `DELETE FROM installations WHERE purge_at <= $1
       RETURNING team_id, enterprise_id, is_enterprise_install`,
      [now],
    );
    return rows.map((row) => ({
      ...(row.team_id ? { teamId: String(row.team_id) } : {}),
      ...(row.enterprise_id ? { enterpriseId: String(row.enterprise_id) } : {}),
      isEnterpriseInstall: Number(row.is_enterprise_install) === 1,
    }));
  }

  async rotateKeys(): Promise<KeyRotation> {
    const currentId = this.#keyring.current.id;
    const [counted] = await this.#sql.query(
      `SELECT
         (SELECT COUNT(*) FROM installations WHERE key_id IS NULL OR key_id = $1) +
         (SELECT COUNT(*) FROM installation_analytics WHERE key_id = $1) AS current`,
      [currentId],
    );
    const tally = { resealed: 0, unreadable: 0, keyIds: new Set<string>() };
    for (const table of [installationsTable, analyticsTable]) {
      let after = '';
      for (;;) {
        const rows = await this.#sql.query(
          `SELECT * FROM ${table.name} WHERE key_id <> $1 AND ${table.id} > $2
           ORDER BY ${table.id} LIMIT ${rotationBatch}`,
          [currentId, after],
        );
        for (const row of rows) await this.#reseal(table, row, tally);
        const last = rows.at(-1);
        if (last === undefined || rows.length < rotationBatch) break;
        after = String(last[table.id]);
      }
    }
    return {
      resealed: tally.resealed,
      current: Number(counted?.current ?? 0),
      unreadable: tally.unreadable,
      unreadableKeyIds: [...tally.keyIds].sort(),
    };
  }

  /** Re-seals one row under the current key, reading it again when another write came between. */
  async #reseal(
    table: SealedTable,
    first: SqlRow,
    tally: { resealed: number; unreadable: number; keyIds: Set<string> },
  ): Promise<void> {
    let row: SqlRow | undefined = first;
    for (let attempt = 0; attempt < rotationAttempts && row !== undefined; attempt++) {
      if (row.key_id === null || row.key_id === this.#keyring.current.id) return;
      let sealed: Record<string, string | null>;
      try {
        sealed = table.reseal(row, this.#keyring);
      } catch (error) {
        if (!(error instanceof SealedValueError)) throw error;
        tally.unreadable++;
        tally.keyIds.add(String(row.key_id));
        return;
      }
      const columns = Object.keys(sealed);
      const updated = await this.#sql.query(
        `UPDATE ${table.name} SET
           ${columns.map((column, i) => `${column} = $${i + 4}`).join(', ')},
           key_id = $3, version = version + 1
         WHERE ${table.id} = $1 AND version = $2
         RETURNING ${table.id}`,
        [
          String(row[table.id]),
          Number(row.version),
          this.#keyring.current.id,
          ...columns.map((column) => sealed[column] ?? null),
        ],
      );
      if (updated.length > 0) {
        tally.resealed++;
        return;
      }
      [row] = await this.#sql.query(`SELECT * FROM ${table.name} WHERE ${table.id} = $1`, [
        String(row[table.id]),
      ]);
    }
  }

  /** The live row the query is served from; see `fetchInstallation`. */
  async #liveRow(query: InstallationQuery): Promise<SqlRow | undefined> {
    const ids = candidateIds(query);
    if (ids.length === 0) return undefined;
    const rows = await this.#sql.query(
      `SELECT * FROM installations WHERE id IN (${placeholders(1, ids.length)})
         AND uninstalled_at IS NULL`,
      ids,
    );
    return this.#preferred(query, rows);
  }

  /** Of the rows found for a query, its own before its organization's. */
  #preferred(query: InstallationQuery, rows: readonly SqlRow[]): SqlRow | undefined {
    const [own] = candidateIds(query);
    return rows.find((row) => row.id === own) ?? rows[0];
  }

  #idOf(query: InstallationQuery): string {
    const id = installationId(query);
    // Not an AppError: Slack names the team or the organization of every installation and event.
    if (id === undefined) throw new TypeError('an installation query names a team or enterprise');
    return id;
  }
}

/** A table of sealed rows, as a rotation sees it. */
interface SealedTable {
  readonly name: string;
  readonly id: string;
  /** The row's sealed columns, opened with the ring and sealed again under its current key. */
  reseal(row: SqlRow, keyring: Keyring): Record<string, string | null>;
}

const installationsTable: SealedTable = {
  name: 'installations',
  id: 'id',
  reseal: (row, keyring) => {
    const tokens = openTokens(row, keyring);
    const id = String(row.id);
    return Object.fromEntries(
      tokenColumns.map((column) => {
        const token = tokens[column];
        const context = sealContext('installations', id, column);
        return [
          column,
          token === undefined ? null : seal(keyring.current, token.reveal(), context),
        ];
      }),
    );
  },
};

const analyticsTable: SealedTable = {
  name: 'installation_analytics',
  id: 'installation_id',
  reseal: (row, keyring) => {
    const sealed = sealAccount(
      rowToAccount(row, keyring),
      String(row.installation_id),
      keyring.current,
    );
    return { client_id: sealed.clientId, client_secret: sealed.clientSecret };
  },
};
