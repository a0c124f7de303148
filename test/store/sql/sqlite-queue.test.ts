/**
 * The SQLite connection is shared by every caller in the process: a statement runs at once when
 * nothing is queued, and waits while another caller's transaction is open, never running inside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteExecutor } from '../../../src/store/sql/sqlite.ts';

describe('the SQLite connection’s queue', () => {
  let folder: string | undefined;
  afterEach(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  function open(): SqliteExecutor {
    folder = mkdtempSync(join(tmpdir(), 'digests-queue-'));
    const path = join(folder, 'digests.sqlite');
    const db = new DatabaseSync(path);
    db.exec('CREATE TABLE marks (n INTEGER)');
    return new SqliteExecutor(db, path);
  }

  it('runs a statement at once when nothing is queued', async () => {
    const executor = open();
    let answered = false;
    const rows = executor.query('INSERT INTO marks VALUES (1) RETURNING n').then((result) => {
      answered = true;
      return result;
    });
    await Promise.resolve();
    expect(answered).toBe(true);
    expect(await rows).toEqual([{ n: 1 }]);
    await executor.close();
  });

  it('keeps a statement out of another caller’s open transaction', async () => {
    const executor = open();
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let opened = () => {};
    const isOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const rolledBack = executor.transaction(async (tx) => {
      await tx.query('INSERT INTO marks VALUES (1)');
      opened();
      await released;
      throw new Error('rolled back');
    });
    await isOpen;
    const outside = executor.query('INSERT INTO marks VALUES (2)');
    release();
    await expect(rolledBack).rejects.toThrow('rolled back');
    await outside;
    expect(await executor.query('SELECT n FROM marks')).toEqual([{ n: 2 }]);
    await executor.close();
  });
});
