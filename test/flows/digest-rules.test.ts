/**
 * The digest rules against the sandbox's catalogue, on each store: a new digest's databases are
 * checked before it is stored, and one identical to a digest of the channel is not created.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import type { AnalyticsApi } from '../../src/analytics/types.ts';
import { AccessDeniedError, NetworkError, UnknownDatabaseError } from '../../src/errors.ts';
import { type DigestAccess, DigestManager } from '../../src/flows/digest-manager.ts';
import { type DigestSpec, parseDigestCommand } from '../../src/parsing/digest.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { announcePostgresSkip, describeEachStore, type RunnerWorld } from '../digests/helpers.ts';

const now = new Date('2026-11-21T15:30:00Z');
const creator = { teamId: 'T1', userId: 'U1' };
const access: DigestAccess = { assertCanPost: async () => {}, isAdmin: async () => false };

let sandbox: Sandbox;
let analytics: AnalyticsClient;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    now: () => now,
    // A client that may read everything but #pharma.
    clients: [
      {
        id: 'limited',
        secret: 'limited-secret',
        access: ['#hcsm', '#bcsm', '#lcsm', '#quiet', 'group:Oncology'],
      },
    ],
  });
  analytics = new AnalyticsClient({
    baseUrl: sandbox.url,
    clientId: 'limited',
    clientSecret: 'limited-secret',
    responseCacheTtlMs: 0,
  });
});

afterAll(async () => {
  await analytics?.close();
  await sandbox?.close();
});

function spec(text: string): DigestSpec {
  const parsed = parseDigestCommand(text, { now, zone: 'Europe/London' });
  if (parsed instanceof Error || parsed.kind !== 'create') throw new Error(`${text}: ${parsed}`);
  return parsed.spec;
}

announcePostgresSkip();
describeEachStore('what a new digest is checked against', now, (world) => {
  let w: RunnerWorld;
  const manager = (service: AnalyticsApi = analytics) =>
    new DigestManager({
      db: w.db.store,
      analytics: service,
      now: () => now,
      runNow: async () => ({ outcome: 'already' }),
    });
  beforeEach(() => {
    w = world();
  });

  it('creates a digest whose databases the service knows, saying they were checked', async () => {
    const created = await manager().create(
      creator,
      'C1',
      spec('digest #hcsm, group:Oncology every monday at 9am'),
      access,
    );
    expect(created.databasesChecked).toBe(true);
    expect(await w.db.store.digests.listByChannel('T1', 'C1')).toHaveLength(1);
  });

  it.each([
    ['#nosuchtag', 'digest #nosuchtag every monday at 9am', UnknownDatabaseError],
    ['no such topic', 'digest #hcsm, "no such topic" every monday at 9am', UnknownDatabaseError],
    ['#pharma', 'digest #hcsm, #pharma every monday at 9am', AccessDeniedError],
  ])('refuses %j, naming it, and stores nothing', async (database, text, kind) => {
    const refusal = manager().create(creator, 'C2', spec(text), access);
    await expect(refusal).rejects.toBeInstanceOf(kind);
    await expect(refusal).rejects.toMatchObject({ database });
    expect(await w.db.store.digests.listByChannel('T1', 'C2')).toEqual([]);
  });

  it('reads "and" between databases as two databases, both checked', async () => {
    const created = await manager().create(
      creator,
      'C4',
      spec('digest #hcsm and #bcsm every monday at 9am'),
      access,
    );
    expect(created.digest.databases).toEqual(['#hcsm', '#bcsm']);
    expect(created.databasesChecked).toBe(true);
  });

  it('creates the digest when the service cannot be reached, saying its databases are unchecked', async () => {
    const down: AnalyticsApi = {
      getInfluencers: async () => {
        throw new NetworkError('connect ECONNREFUSED');
      },
    };
    const created = await manager(down).create(creator, 'C3', spec('digest #hcsm daily'), access);
    expect(created.databasesChecked).toBe(false);
    expect(await w.db.store.digests.get(created.digest.id)).toBeDefined();
  });

  it('finds the identical digest of the channel, whatever the order or case of its databases', async () => {
    const first = await manager().create(
      creator,
      'C4',
      spec('digest #hcsm, #bcsm every monday at 9am top 5'),
      access,
    );
    const identicalIn = (text: string, channel = 'C4') =>
      manager().identicalIn('T1', channel, spec(text));
    expect((await identicalIn('digest #BCSM, #hcsm mondays at 09:00 top 5'))?.id).toBe(
      first.digest.id,
    );
    expect(
      (await identicalIn('digest #hcsm, #bcsm every monday at 9am top 5 with chart'))?.id,
    ).toBe(first.digest.id);
    for (const other of [
      'digest #hcsm, #bcsm every monday at 9am top 6',
      'digest #hcsm, #bcsm every monday at 10am top 5',
      'digest #hcsm, #bcsm every monday at 9am top 5 in Asia/Tokyo',
      'digest #hcsm, #bcsm every monday at 9am top 5 last 2 weeks',
      'digest #hcsm, #bcsm every monday at 9am top 5 by impressions',
      'digest #hcsm, #bcsm every monday at 9am top 5 only new',
      'digest #hcsm every monday at 9am top 5',
    ]) {
      expect(await identicalIn(other)).toBeUndefined();
    }
    expect(
      await identicalIn('digest #hcsm, #bcsm every monday at 9am top 5', 'C5'),
    ).toBeUndefined();
  });
});
