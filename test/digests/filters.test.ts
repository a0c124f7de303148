/**
 * Digests that keep only some people (`doctors`, `no pharma`) or rank by followers: read by the
 * grammar, kept by the store, asked of the service as lookups ask (its top 500), chosen here, and
 * said in the post as lookups say it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Influencer, InfluencersResult } from '../../src/analytics/types.ts';
import { everyTeam } from '../../src/digests/per-team.ts';
import { DigestRunner } from '../../src/digests/runner.ts';
import { identicalDigest } from '../../src/flows/digest-checks.ts';
import type { Digest } from '../../src/model/digest.ts';
import { type DigestSpec, parseDigestCommand } from '../../src/parsing/digest.ts';
import { applyDigestEdit, readEdit } from '../../src/parsing/digest-edit.ts';
import { tokenize } from '../../src/parsing/tokens.ts';
import { renderDigestMessage } from '../../src/render/digests/digest-post.ts';
import { digestSubject } from '../../src/render/digests/digest-words.ts';
import type { Database } from '../../src/store/database.ts';
import { openDatabase } from '../../src/store/open.ts';
import { texts } from '../render/helpers.ts';
import { digestInput, FakeAnalytics, FakeClock, FakePoster } from './helpers.ts';

const now = new Date('2026-06-06T12:00:00Z');
const slot = new Date('2026-06-08T08:00:00Z');

function spec(text: string): DigestSpec {
  const command = parseDigestCommand(text, { now, zone: 'Europe/London' });
  if (!('kind' in command) || command.kind !== 'create') throw new Error(`not created: ${text}`);
  return command.spec;
}

/** 40 people: every fourth a doctor, every fifth with pharma too; followers rise with rank. */
function pool(): InfluencersResult {
  const people: Influencer[] = Array.from({ length: 40 }, (_, i) => ({
    rank: i + 1,
    screenName: `p${i + 1}`,
    followersCount: (i + 1) * 10,
    stakeholderCategories: [
      ...(i % 4 === 0 ? [{ name: 'Doctor' }] : []),
      ...(i % 5 === 0 ? [{ name: 'Org. Pharma' }] : []),
    ],
    metrics: { mentions: 1000 - i },
  }));
  return { influencers: people };
}

describe('digest grammar: who the ranking keeps, by followers', () => {
  it.each([
    ['digest #hcsm every monday at 9am doctors', { include: ['Doctor'], exclude: [] }],
    ['digest #hcsm every monday at 9am only doctors', { include: ['Doctor'], exclude: [] }],
    ['digest #hcsm every monday at 9am no pharma', { include: [], exclude: ['Org. Pharma'] }],
    ['watch #hcsm top 10 only patients', { include: ['Patient Advocate'], exclude: [] }],
  ])('reads %j', (text, stakeholders) => {
    expect(spec(text).stakeholders).toEqual(stakeholders);
  });

  it('reads by followers beside a metric', () => {
    expect(spec('digest #hcsm every monday at 9am by followers')).toMatchObject({
      orderBy: 'followers',
    });
    expect(spec('digest #hcsm every monday by impressions by followers')).toMatchObject({
      orderBy: 'followers',
      metric: 'impressions',
    });
  });

  it('still reads only when changed and only new as conditions', () => {
    expect(spec('digest #hcsm every monday only doctors only when changed')).toMatchObject({
      postWhen: 'changed',
      stakeholders: { include: ['Doctor'] },
    });
  });

  it('edits who the ranking keeps, and everyone goes back to all', () => {
    const digest = { ...digestInput(), postWhen: 'always', presentation: 'list' } as const;
    const edit = (text: string) => readEdit(text, tokenize(text)).edit;
    const doctors = applyDigestEdit(digest, edit('digest edit 7K3M9Q doctors by followers'), now);
    expect(doctors).toMatchObject({ stakeholders: { include: ['Doctor'] }, orderBy: 'followers' });
    const back = applyDigestEdit(
      { ...digest, stakeholders: { include: ['Doctor'], exclude: [] }, orderBy: 'followers' },
      edit('digest edit 7K3M9Q everyone by mentions'),
      now,
    );
    expect(back.stakeholders).toBeUndefined();
    expect(back.orderBy).toBeUndefined();
    expect(back.metric).toBe('mentions');
  });

  it('keeps the digest’s filter when the same people come back in another order', () => {
    const stakeholders = { include: ['Patient Advocate', 'Doctor'], exclude: ['Org. Pharma'] };
    const digest = {
      ...digestInput(),
      postWhen: 'always',
      presentation: 'list',
      stakeholders,
    } as const;
    const same = { include: ['Doctor', 'Patient Advocate'], exclude: ['Org. Pharma'] };
    expect(applyDigestEdit(digest, { stakeholders: same }, now).stakeholders).toBe(stakeholders);
    const fewer = { include: ['Doctor'], exclude: ['Org. Pharma'] };
    expect(applyDigestEdit(digest, { stakeholders: fewer }, now).stakeholders).toEqual(fewer);
  });

  it('counts who it keeps in the duplicate check', () => {
    const everyone = spec('digest #hcsm every monday at 9am');
    const existing = { ...everyone, id: 'AAAAAA' } as unknown as Digest;
    expect(identicalDigest([existing], spec('digest #hcsm every monday at 9am'), now)).toBe(
      existing,
    );
    expect(identicalDigest([existing], spec('digest #hcsm every monday at 9am doctors'), now)).toBe(
      undefined,
    );
    expect(
      identicalDigest([existing], spec('digest #hcsm every monday at 9am by followers'), now),
    ).toBe(undefined);
  });
});

describe('digest runs that choose people here', () => {
  let store: Database;
  let clock: FakeClock;
  let analytics: FakeAnalytics;
  let poster: FakePoster;
  let rendered: { digest: Digest; result: InfluencersResult; limit: number | undefined }[];

  beforeEach(async () => {
    store = await openDatabase({ sqlitePath: ':memory:' });
    clock = new FakeClock('2026-06-08T08:00:20Z');
    analytics = new FakeAnalytics();
    analytics.answer = async () => pool();
    poster = new FakePoster(clock);
    rendered = [];
  });
  afterEach(async () => {
    await store.close();
  });

  const runner = () =>
    new DigestRunner({
      db: store,
      analytics,
      posters: everyTeam(poster),
      clock,
      renderDigest: (digest, query, result) => {
        rendered.push({ digest, result, limit: query.limit });
        return { text: `digest ${digest.id}`, blocks: [] };
      },
      renderPauseNotice: () => ({ text: 'paused', blocks: [] }),
      options: { owner: 'runner-a' },
    });

  it('asks for the top 500 once for every digest that chooses here, and keeps each one’s people', async () => {
    const doctors = await store.digests.create(
      digestInput({
        nextRunAt: slot,
        top: 3,
        channelId: 'C1',
        stakeholders: { include: ['Doctor'], exclude: [] },
      }),
      clock.now(),
    );
    const byFollowers = await store.digests.create(
      digestInput({ nextRunAt: slot, top: 2, channelId: 'C2', orderBy: 'followers' }),
      clock.now(),
    );
    const plain = await store.digests.create(
      digestInput({ nextRunAt: slot, top: 2, channelId: 'C3' }),
      clock.now(),
    );
    const report = await runner().runDue(clock.now());
    expect(report).toMatchObject({ posted: 3, analyticsCalls: 2 });
    expect(analytics.calls.map((call) => call.limit).sort()).toEqual([2, 500]);
    const shown = (id: string) =>
      rendered
        .find((each) => each.digest.id === id)
        ?.result.influencers.map((person) => `${person.rank}:${person.screenName}`);
    expect(shown(doctors.id)).toEqual(['1:p1', '2:p5', '3:p9']);
    expect(shown(byFollowers.id)).toEqual(['1:p40', '2:p39']);
    expect(shown(plain.id)).toHaveLength(40);
    expect((await store.digests.get(doctors.id))?.lastRanking).toEqual([
      { screenName: 'p1', rank: 1 },
      { screenName: 'p5', rank: 2 },
      { screenName: 'p9', rank: 3 },
    ]);
    expect((await store.runs.recent(doctors.id, 1))[0]?.entries.map((e) => e.handle)).toEqual([
      'p1',
      'p5',
      'p9',
    ]);
  });
});

describe('a digest post that chose its people here', () => {
  it('says who it kept among the top 500 as a lookup does, and shows its top N', () => {
    // A new digest's `canvas` is a wish (a boolean); a stored one's is the canvas it keeps.
    const { canvas: _wish, ...input } = digestInput({
      top: 10,
      stakeholders: { include: ['Doctor'], exclude: [] },
    });
    const digest: Digest = {
      ...input,
      id: '7K3M9Q',
      postWhen: 'always',
      presentation: 'list',
      status: 'active',
      consecutiveFailures: 0,
      createdAt: now,
      updatedAt: now,
    };
    const people = pool().influencers.slice(0, 10);
    const message = renderDigestMessage(
      digest,
      {
        databases: ['#hcsm'],
        start: '2026-06-01T09:00:00+01:00',
        end: '2026-06-08T09:00:00+01:00',
        timezone: 'Europe/London',
        limit: 500,
      },
      { influencers: people, selection: { pool: 500, matched: 37 } },
      { firstRun: true, newEntrants: [], movedUp: [], movedDown: [], droppedOut: [], unchanged: 0 },
    );
    expect(texts(message.blocks).join('\n')).toContain(
      'Doctors among the top 500 by mentions: 37 · showing 10',
    );
    expect(digestSubject(digest)).toBe('top 10 of #hcsm (Doctors) in <#C1>');
    expect(digestSubject({ ...digest, orderBy: 'followers' }, { channel: false })).toBe(
      'top 10 of #hcsm (Doctors, ranked by followers)',
    );
  });
});
