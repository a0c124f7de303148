/**
 * Digests created by command in the running app and run against the sandbox's deterministic
 * data: what a watch and `only when changed` post is checked against what the sandbox answers
 * for the same windows, asked directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import { questionFor } from '../../src/digests/questions.ts';
import { runWindow } from '../../src/digests/schedule.ts';
import type { DigestStore } from '../../src/digests/store/store.ts';
import type { Digest, RankedAccount } from '../../src/model/digest.ts';
import { rankChanges } from '../../src/model/rank-changes.ts';
import { demoClient } from '../../src/sandbox/server.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { slashCommand, teamId } from '../helpers/payloads.ts';

/** Saturday 21 November 2026, 15:00 UTC, moving with real time. */
const startedAt = new Date('2026-11-21T15:00:00Z').getTime();
const realStart = Date.now();
const now = () => new Date(startedAt + (Date.now() - realStart));
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let harness: Harness;
let store: DigestStore;
let sandboxClient: AnalyticsClient;
let channelSequence = 0;
const freshChannel = () => `C0SAND${String(++channelSequence).padStart(4, '0')}`;

beforeAll(async () => {
  harness = await startHarness({
    env: { RESPONSE_CACHE_TTL_MS: '0' },
    // The runs below are for the coming hours and days: the sandbox answers as if they were past.
    sandbox: { now: () => new Date('2027-01-01T00:00:00Z') },
    overrides: {
      now,
      digests: {
        clock: { now, sleep: realSleep },
        runnerOptions: { backoffMs: 5, channelIntervalMs: 0 },
      },
    },
  });
  harness.slack.override('conversations.info', (args) => ({
    ok: true,
    channel: { id: args.channel, is_channel: true, is_private: false, is_member: true },
  }));
  store = harness.running.digests.store;
  sandboxClient = new AnalyticsClient({
    baseUrl: harness.sandbox.url,
    clientId: demoClient.id,
    clientSecret: demoClient.secret,
    responseCacheTtlMs: 0,
  });
});

afterAll(async () => {
  await sandboxClient?.close();
  await harness?.close();
});

/** Creates a digest by command in a fresh channel and returns it as stored. */
async function created(text: string): Promise<Digest> {
  const channelId = freshChannel();
  const payload = slashCommand({ text, channelId });
  const ack = await harness.send(payload);
  expect(ack.status).toBe(200);
  const answer = await harness.slack.waitForResponse(payload.responseUrl);
  expect(String(answer.args.text)).toMatch(/ created: /);
  const [digest] = await store.listByChannel(teamId, channelId);
  if (digest === undefined) throw new Error(`no digest for ${text}`);
  return digest;
}

/** The ranking the sandbox gives a digest's question for `slot`, asked directly. */
async function rankingAt(digest: Digest, slot: Date): Promise<RankedAccount[]> {
  const result = await sandboxClient.getInfluencers(questionFor(digest, runWindow(digest, slot)));
  return result.influencers
    .slice(0, digest.top)
    .map(({ screenName, rank }) => ({ screenName, rank }));
}

const posts = (channel: string): SlackCall[] =>
  harness.slack.api('chat.postMessage').filter((call) => call.args.channel === channel);

/** Runs the digest's next `count` slots, one tick each. */
async function runSlots(digest: Digest, count: number): Promise<Date[]> {
  const slots: Date[] = [];
  for (let i = 0; i < count; i++) {
    const slot = ((await store.get(digest.id)) as Digest).nextRunAt;
    slots.push(slot);
    await harness.running.digests.runner.runDue(new Date(slot.getTime() + 5_000));
  }
  return slots;
}

describe('a watch against the sandbox', () => {
  it('records the first ranking, then posts whenever someone enters the top 10, naming them first', async () => {
    const watch = await created('watch #hcsm top 10');
    expect(watch).toMatchObject({ postWhen: 'new', schedule: { expression: '0 * * * *' } });
    const slots = await runSlots(watch, 4);
    const rankings = await Promise.all(slots.map((slot) => rankingAt(watch, slot)));
    const expected = rankings.slice(1).flatMap((ranking, i) => {
      const { newEntrants } = rankChanges(rankings[i], ranking);
      return newEntrants.length === 0
        ? []
        : [newEntrants.map((account) => `@${account.screenName}`)];
    });
    expect(expected.length).toBeGreaterThan(0);
    const posted = posts(watch.channelId);
    expect(posted).toHaveLength(expected.length);
    posted.forEach((post, i) => {
      const text = String(post.args.text);
      expect(text).toMatch(/^Watch: New in the top 10: /);
      for (const handle of expected[i] ?? []) expect(text).toContain(handle);
    });
    expect(await store.getDelivery(watch.id, slots[0] as Date)).toMatchObject({
      status: 'skipped',
      skipReason: { kind: 'first_ranking' },
    });
  });
});

describe('only when changed against the sandbox', () => {
  it('posts the first run, then skips a conversation whose ranking stays the same', async () => {
    const quiet = await created('digest #quiet every day at 9am only when changed');
    const slots = await runSlots(quiet, 2);
    expect(await rankingAt(quiet, slots[1] as Date)).toEqual([]);
    expect(posts(quiet.channelId)).toHaveLength(1);
    expect(await store.get(quiet.id)).toMatchObject({
      lastRun: { slot: slots[1], outcome: 'skipped', skipReason: { kind: 'unchanged' } },
    });
  });

  it('posts a run whose ranking moved, as the sandbox ranks the two windows', async () => {
    const moving = await created('digest #hcsm every day at 9am only when changed');
    const slots = await runSlots(moving, 2);
    const [first, second] = await Promise.all(slots.map((slot) => rankingAt(moving, slot)));
    const { newEntrants, movedUp, movedDown, droppedOut } = rankChanges(first, second ?? []);
    const moved = [newEntrants, movedUp, movedDown, droppedOut].some((list) => list.length > 0);
    expect(moved).toBe(true);
    expect(posts(moving.channelId)).toHaveLength(2);
  });
});

describe('digest edit by command', () => {
  it('changes the time and top N, confirms with the next three runs, and runs as edited', async () => {
    const digest = await created('digest #hcsm every monday at 9am');
    const payload = slashCommand({
      text: `digest edit ${digest.id.toLowerCase()} at 10:30 top 3 by impressions`,
      channelId: digest.channelId,
    });
    await harness.send(payload);
    const answer = await harness.slack.waitForResponse(payload.responseUrl);
    const edited = (await store.get(digest.id)) as Digest;
    expect(edited).toMatchObject({
      top: 3,
      metric: 'impressions',
      schedule: { expression: '30 10 * * 1', zone: 'America/New_York' },
      nextRunAt: new Date('2026-11-23T15:30:00Z'),
    });
    expect(String(answer.args.text)).toMatch(new RegExp(`^Digest ${digest.id} updated: `));
    const blocks = JSON.stringify(answer.args.blocks);
    for (const run of ['Mon Nov 23, 10:30 EST', 'Mon Nov 30, 10:30 EST', 'Mon Dec 7, 10:30 EST']) {
      expect(blocks).toContain(run);
    }
    expect(blocks).toContain('*Ranked by*: impressions');
    await runSlots(edited, 1);
    const [post] = posts(digest.channelId);
    expect(JSON.stringify(post?.args.blocks)).toContain('ranked by impressions');
  });
});
