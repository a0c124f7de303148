/**
 * An edit goes through the duplicate check a new digest does, on each store: one that would make
 * a digest identical to another of the same place (channel, or the person's DM) changes nothing
 * and names that digest; the digest itself never counts.
 */
import { beforeEach, expect, it } from 'vitest';
import { type DigestAccess, DigestManager } from '../../src/flows/digest-manager.ts';
import type { Digest } from '../../src/model/digest.ts';
import { type DigestSpec, parseDigestCommand } from '../../src/parsing/digest.ts';
import type { DigestEdit } from '../../src/parsing/digest-edit.ts';
import { announcePostgresSkip, describeEachStore, type RunnerWorld } from '../digests/helpers.ts';

// Saturday 21 November 2026, 15:30 UTC.
const now = new Date('2026-11-21T15:30:00Z');
const creator = { teamId: 'T1', userId: 'U1' };
const access: DigestAccess = { assertCanPost: async () => {}, isAdmin: async () => false };

function spec(text: string): DigestSpec {
  const parsed = parseDigestCommand(text, { now, zone: 'Europe/London' });
  if (parsed instanceof Error || parsed.kind !== 'create') throw new Error(`${text}: ${parsed}`);
  return parsed.spec;
}

function edit(text: string): DigestEdit {
  const parsed = parseDigestCommand(`digest edit XXXXXX ${text}`, { now, zone: 'UTC' });
  if (parsed instanceof Error || parsed.kind !== 'edit') throw new Error(`${text}: ${parsed}`);
  return parsed.edit;
}

announcePostgresSkip();
describeEachStore('an edit checked for duplicates', now, (world) => {
  let w: RunnerWorld;
  let manager: DigestManager;
  const create = async (text: string, channelId = 'C1'): Promise<Digest> =>
    (await manager.create(creator, channelId, spec(text), access)).digest;
  beforeEach(() => {
    w = world();
    manager = new DigestManager({
      db: w.db.store,
      now: () => now,
      runNow: async () => ({ outcome: 'already' }),
    });
  });

  it.each([
    ['top', 'digest #hcsm every monday at 9am top 5', 'digest #hcsm every monday at 9am', 'top 5'],
    [
      'schedule',
      'digest #hcsm every monday at 9am',
      'digest #hcsm every monday at 10am',
      'cron "0 9 * * 1"',
    ],
    [
      'window',
      'digest #hcsm every monday at 9am last week',
      'digest #hcsm every monday at 9am',
      'last week',
    ],
    [
      'zone',
      'digest #hcsm every monday at 9am in Asia/Tokyo',
      'digest #hcsm every monday at 9am',
      'in Asia/Tokyo',
    ],
    [
      'metric',
      'digest #hcsm every monday at 9am by retweets',
      'digest #hcsm every monday at 9am',
      'by retweets',
    ],
    [
      'posts',
      'digest #hcsm every monday at 9am only new',
      'digest #hcsm every monday at 9am',
      'only new',
    ],
  ])(
    'refuses an edit of the %s that repeats another digest of the channel, changing nothing',
    async (setting, first, second, change) => {
      const existing = await create(first);
      const edited = await create(second);
      const outcome = await manager.edit(creator, edited.id, edit(change), access);
      expect(outcome).toEqual({
        kind: 'duplicate',
        digest: edited,
        duplicate: existing,
        settings: [setting],
      });
      expect(await w.db.store.digests.get(edited.id)).toEqual(edited);
    },
  );

  it('refuses an edit of who is kept that repeats another digest', async () => {
    const doctors = spec('digest #hcsm every monday at 9am doctors').stakeholders;
    if (doctors === undefined) throw new Error('no people kept');
    const existing = await create('digest #hcsm every monday at 9am doctors');
    const edited = await create('digest #hcsm every monday at 9am');
    const outcome = await manager.edit(creator, edited.id, { stakeholders: doctors }, access);
    expect(outcome).toMatchObject({ kind: 'duplicate', duplicate: { id: existing.id } });
    expect(outcome.kind === 'duplicate' && outcome.settings).toEqual(['who']);
    expect(await w.db.store.digests.get(edited.id)).toEqual(edited);
  });

  it('saves an edit that leaves a digest as it was, or changes only how it shows', async () => {
    const digest = await create('digest #hcsm every monday at 9am top 5');
    const again = await manager.edit(
      creator,
      digest.id,
      edit('every monday at 9am since the previous run top 5 in Europe/London'),
      access,
    );
    expect(again).toMatchObject({ kind: 'edited', digest: { id: digest.id, top: 5 } });
    const shown = await manager.edit(creator, digest.id, edit('with table'), access);
    expect(shown).toMatchObject({ kind: 'edited', digest: { presentation: 'table' } });
  });

  it('lets two digests that were alike before be edited, and one be moved away', async () => {
    const first = await create('digest #hcsm every monday at 9am');
    const second = (
      await manager.create(creator, 'C1', spec('digest #hcsm every monday at 9am'), access)
    ).digest;
    expect(await manager.edit(creator, second.id, edit('with chart'), access)).toMatchObject({
      kind: 'edited',
      digest: { id: second.id, presentation: 'chart' },
    });
    expect(await manager.edit(creator, second.id, edit('top 3'), access)).toMatchObject({
      kind: 'edited',
      digest: { top: 3 },
    });
    expect(await manager.edit(creator, first.id, edit('top 3'), access)).toMatchObject({
      kind: 'duplicate',
      duplicate: { id: second.id },
    });
  });

  it('saves the edit when the identical digest posts in another channel or DM', async () => {
    await create('digest #hcsm every monday at 9am top 5', 'C2');
    await create('digest #hcsm every monday at 9am top 5', 'D2');
    const edited = await create('digest #hcsm every monday at 9am');
    expect(await manager.edit(creator, edited.id, edit('top 5'), access)).toMatchObject({
      kind: 'edited',
      digest: { top: 5 },
    });
  });

  it('refuses an edit that repeats another digest of the same DM', async () => {
    const existing = await create('digest #hcsm every monday at 9am top 5 to me', 'D1');
    const edited = await create('digest #hcsm every monday at 9am to me', 'D1');
    const outcome = await manager.edit(creator, edited.id, edit('top 5'), access);
    expect(outcome).toMatchObject({ kind: 'duplicate', duplicate: { id: existing.id } });
    expect(await w.db.store.digests.get(edited.id)).toEqual(edited);
  });
});
