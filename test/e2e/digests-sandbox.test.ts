/**
 * Digests created by command in the running app and run against the sandbox's deterministic
 * data: what a watch and `only when changed` post is checked against what the sandbox answers
 * for the same windows, asked directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsClient } from '../../src/analytics/client.ts';
import { questionFor } from '../../src/digests/questions.ts';
import { runWindow } from '../../src/digests/run-window.ts';
import type { Digest, RankedAccount } from '../../src/model/digest.ts';
import { rankChanges } from '../../src/model/rank-changes.ts';
import { digestActionIds } from '../../src/render/ids.ts';
import type { Database } from '../../src/store/database.ts';
import { type DigestRuns, startDigestRuns } from '../helpers/digest-runs.ts';
import { pressEdit, submittedEdit } from '../helpers/edit-modal.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import type { Harness } from '../helpers/harness.ts';
import { slashCommand, teamId } from '../helpers/payloads.ts';

let harness: Harness;
let store: Database;
let sandboxClient: AnalyticsClient;
let channelSequence = 0;
const freshChannel = () => `C0SAND${String(++channelSequence).padStart(4, '0')}`;

let runs: DigestRuns | undefined;

beforeAll(async () => {
  runs = await startDigestRuns();
  ({ harness, store, sandboxClient } = runs);
});

afterAll(async () => {
  await runs?.close();
});

/** Creates a digest by command in a fresh channel and returns it as stored. */
async function created(text: string): Promise<Digest> {
  const channelId = freshChannel();
  const payload = slashCommand({ text, channelId });
  const ack = await harness.send(payload);
  expect(ack.status).toBe(200);
  const answer = await harness.slack.waitForResponse(payload.responseUrl);
  expect(String(answer.args.text)).toMatch(/ created: /);
  const [digest] = await store.digests.listByChannel(teamId, channelId);
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
    const slot = ((await store.digests.get(digest.id)) as Digest).nextRunAt;
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
    expect(await store.runs.getDelivery(watch.id, slots[0] as Date)).toMatchObject({
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
    expect(await store.digests.get(quiet.id)).toMatchObject({
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
    const edited = (await store.digests.get(digest.id)) as Digest;
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

describe('the Edit button and modal', () => {
  async function openEditor(digest: Digest): Promise<Record<string, unknown>> {
    const before = harness.slack.api('views.open').length;
    const press = pressEdit(digest);
    expect((await harness.send(press)).status).toBe(200);
    await harness.slack.waitFor(() => harness.slack.api('views.open').length > before);
    return harness.slack.api('views.open').at(-1)?.args.view as Record<string, unknown>;
  }

  it('opens a modal prefilled with the digest, and saves what was changed in it', async () => {
    const digest = await created('digest #hcsm weekdays at 8:30 last 24 hours top 5');
    const view = await openEditor(digest);
    const prefilled = JSON.stringify(view);
    for (const words of [
      'weekdays at 08:30',
      'last 24 hours',
      '"initial_value":"5"',
      'America/New_York',
    ]) {
      expect(prefilled).toContain(words);
    }
    const save = submittedEdit(view, {
      schedule: 'every monday at 10am',
      metric: 'retweets',
      posts: 'changed',
    });
    const ack = await harness.send(save);
    expect(ack.status).toBe(200);
    expect(ack.text).toBe('');
    const edited = (await store.digests.get(digest.id)) as Digest;
    expect(edited).toMatchObject({
      schedule: { expression: '0 10 * * 1', zone: 'America/New_York' },
      window: { kind: 'last', amount: 24, unit: 'hours' },
      top: 5,
      metric: 'retweets',
      postWhen: 'changed',
    });
    const url = JSON.parse(String(view.private_metadata)).responseUrl as string;
    const confirmationCall = await harness.slack.waitForResponse(url, 2);
    expect(String(confirmationCall.args.text)).toMatch(
      new RegExp(`^Digest ${digest.id} updated: `),
    );
  });

  it('keeps the modal open with the grammar’s words under the schedule it cannot read', async () => {
    const digest = await created('digest #hcsm every monday at 9am');
    const view = await openEditor(digest);
    const ack = await harness.send(submittedEdit(view, { schedule: 'every 2 months at 9am' }));
    expect(ack.json).toMatchObject({
      response_action: 'errors',
      errors: { digest_edit_schedule: expect.stringContaining('every 2 months') },
    });
    expect((await store.digests.get(digest.id))?.schedule.expression).toBe('0 9 * * 1');
  });

  const initialValues = (view: Record<string, unknown>, blockId: string): string[] | undefined => {
    const block = (view.blocks as { block_id?: string; element?: Record<string, unknown> }[]).find(
      (each) => each.block_id === blockId,
    );
    if (block === undefined) return undefined;
    return ((block.element?.initial_options ?? []) as { value: string }[]).map((o) => o.value);
  };

  it('prefills who the digest keeps and its canvas, and saves them as `digest edit` does', async () => {
    const digest = await created('digest #hcsm every monday at 9am only doctors no pharma canvas');
    const view = await openEditor(digest);
    expect(initialValues(view, 'digest_edit_who')).toEqual(['Doctor']);
    expect(initialValues(view, 'digest_edit_without')).toEqual(['Org. Pharma']);
    expect(initialValues(view, 'digest_edit_canvas')).toEqual(['on']);

    const unchanged = await harness.send(submittedEdit(view, {}));
    expect(unchanged.text).toBe('');
    expect(await store.digests.get(digest.id)).toMatchObject({
      stakeholders: { include: ['Doctor'], exclude: ['Org. Pharma'] },
      canvas: { enabled: true },
    });

    const changed = await harness.send(
      submittedEdit(view, { who: ['Patient Advocate', 'Caregiver'], without: [], canvas: [] }),
    );
    expect(changed.text).toBe('');
    const turnedOff = (await store.digests.get(digest.id)) as Digest;
    expect(turnedOff.stakeholders).toEqual({
      include: ['Patient Advocate', 'Caregiver'],
      exclude: [],
    });
    expect(turnedOff.canvas?.enabled ?? false).toBe(false);

    const everyone = await harness.send(
      submittedEdit(view, { who: [], without: [], canvas: ['on'] }),
    );
    expect(everyone.text).toBe('');
    const saved = (await store.digests.get(digest.id)) as Digest;
    expect(saved.stakeholders).toBeUndefined();
    expect(saved.canvas?.enabled).toBe(true);
  });

  it('keeps the modal open when the same people are both kept and left out', async () => {
    const digest = await created('digest #hcsm every monday at 9am doctors');
    const view = await openEditor(digest);
    const ack = await harness.send(
      submittedEdit(view, {
        who: ['Doctor', 'HCP'],
        without: ['HCP'],
        schedule: 'every friday at 5pm',
      }),
    );
    expect(ack.json).toMatchObject({
      response_action: 'errors',
      errors: {
        digest_edit_without:
          'HCPs cannot be both kept and left out: take it out of Only or out of Leave out.',
      },
    });
    expect(await store.digests.get(digest.id)).toMatchObject({
      schedule: { expression: '0 9 * * 1' },
      stakeholders: { include: ['Doctor'], exclude: [] },
    });
  });

  it('offers a watch no canvas, and still saves who it keeps', async () => {
    const watch = await created('watch #hcsm top 10');
    const view = await openEditor(watch);
    expect(initialValues(view, 'digest_edit_canvas')).toBeUndefined();
    const ack = await harness.send(submittedEdit(view, { without: ['Org. Pharma'] }));
    expect(ack.text).toBe('');
    const saved = (await store.digests.get(watch.id)) as Digest;
    expect(saved.stakeholders).toEqual({ include: [], exclude: ['Org. Pharma'] });
    expect(saved.canvas?.enabled ?? false).toBe(false);
  });

  it('does not open the modal for someone who may not change the digest', async () => {
    const digest = await created('digest #hcsm every monday at 9am');
    const opened = harness.slack.api('views.open').length;
    const press = pressEdit(digest, 'U0STRANGER');
    await harness.send(press);
    const answer = await harness.slack.waitForResponse(press.responseUrl);
    expect(String(answer.args.text)).toContain("Only the digest's creator");
    expect(harness.slack.api('views.open')).toHaveLength(opened);
  });
});

describe('creation against the sandbox’s catalogue', () => {
  async function answerTo(text: string, channelId: string): Promise<SlackCall> {
    const payload = slashCommand({ text, channelId });
    expect((await harness.send(payload)).status).toBe(200);
    return harness.slack.waitForResponse(payload.responseUrl);
  }

  it.each([
    ['digest #nosuchtag every monday at 9am', 'There is no database called “#nosuchtag”'],
    [
      'digest #hcsm, "no such topic" every monday at 9am',
      'There is no database called “no such topic”',
    ],
    ['watch #nosuchtag top 10', 'There is no database called “#nosuchtag”'],
  ])('refuses %j, naming the database, and stores nothing', async (text, words) => {
    const channelId = freshChannel();
    const answer = await answerTo(text, channelId);
    expect(String(answer.args.text)).toContain(words);
    expect(await store.digests.listByChannel(teamId, channelId)).toEqual([]);
  });

  it('shows the identical digest of the channel instead of creating a second', async () => {
    const digest = await created('digest #hcsm, #bcsm every monday at 9am top 5');
    const answer = await answerTo('digest #BCSM, #hcsm mondays at 09:00 top 5', digest.channelId);
    expect(String(answer.args.text)).toBe(
      `An identical digest, ${digest.id}, already posts in <#${digest.channelId}>: top 5 of #hcsm, #bcsm, Mondays at 09:00 America/New_York. No other was created.`,
    );
    expect(JSON.stringify(answer.args.blocks)).toContain(digestActionIds.pause);
    expect(await store.digests.listByChannel(teamId, digest.channelId)).toHaveLength(1);
  });
});
