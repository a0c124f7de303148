/**
 * Issue 18, item 9, over signed HTTP against the fake Slack: after an outage of the analytics
 * service held a workspace's digests for days, each creator gets one DM (not one per slot) listing
 * the digests and the slots skipped meanwhile, with "Run now" for each; pressing it runs that
 * digest and answers in the DM, leaving the notice in place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../src/errors.ts';
import type { Digest } from '../../src/model/digest.ts';
import { digestActionIds, digestNoticeBlockPrefix } from '../../src/render/ids.ts';
import type { Database } from '../../src/store/database.ts';
import {
  dailyLondon,
  digestInput,
  FakeAnalytics,
  FakeClock,
  influencers,
} from '../digests/helpers.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { blockAction, teamId, userId } from '../helpers/payloads.ts';

/** 09:00 London on 8 to 11 June 2026. */
const days = ['2026-06-08', '2026-06-09', '2026-06-10', '2026-06-11'].map(
  (day) => new Date(`${day}T08:00:00Z`),
);
const otherCreator = 'U0OTHER01';

function noticeButtons(call: SlackCall): { blockId: string; value: string }[] {
  const blocks = (call.args.blocks ?? []) as {
    type: string;
    block_id?: string;
    elements?: { action_id?: string; value?: string }[];
  }[];
  return blocks.flatMap((block) =>
    block.type === 'actions' && block.block_id?.startsWith(digestNoticeBlockPrefix)
      ? (block.elements ?? [])
          .filter((element) => element.action_id === digestActionIds.runNow)
          .map((element) => ({ blockId: block.block_id ?? '', value: element.value ?? '' }))
      : [],
  );
}

describe('creators told what an outage skipped', () => {
  const clock = new FakeClock('2026-06-08T08:00:10Z');
  const analytics = new FakeAnalytics();
  let harness: Harness;
  let store: Database;
  const mine: Digest[] = [];

  beforeAll(async () => {
    harness = await startHarness({
      overrides: {
        analytics,
        now: () => clock.now(),
        digests: { clock, runnerOptions: { channelIntervalMs: 0, backoffMs: 10 } },
      },
    });
    store = harness.running.digests.database;
    harness.slack.override('users.info', (args) => ({
      ok: true,
      user: { id: args.user, tz: 'Europe/London', is_admin: false },
    }));
    for (const [creatorId, channelId] of [
      [userId, 'C0OUT0001'],
      [userId, 'C0OUT0002'],
      [otherCreator, 'C0OUT0003'],
    ] as const) {
      const digest = await store.digests.create(
        digestInput({
          teamId,
          creatorId,
          channelId,
          schedule: dailyLondon,
          nextRunAt: days[0] as Date,
        }),
        clock.now(),
      );
      if (creatorId === userId) mine.push(digest);
    }
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('sends one DM per creator with the skipped slots and Run now, which runs the digest', async () => {
    const runner = harness.running.digests.runner;
    analytics.answer = async () => {
      throw new ServiceUnavailableError(503, 3);
    };
    for (const day of days.slice(0, 3)) {
      clock.set(new Date(day.getTime() + 10_000));
      expect(await runner.runDue(clock.now())).toMatchObject({ posted: 0, failed: 0 });
    }
    const dms = () =>
      harness.slack
        .api('chat.postMessage')
        .filter((call) => call.args.channel === userId || call.args.channel === otherCreator);
    expect(dms()).toEqual([]);

    analytics.answer = async () => influencers('alice', 'bob');
    clock.set(new Date((days[3] as Date).getTime() + 10_000));
    expect(await runner.runDue(clock.now())).toMatchObject({ posted: 3 });
    expect(
      dms()
        .map((call) => String(call.args.channel))
        .sort(),
    ).toEqual([userId, otherCreator].sort());
    const toMe = dms().find((call) => call.args.channel === userId);
    if (toMe === undefined) throw new Error('no DM');
    expect(String(toMe.args.text)).toContain(
      'were skipped meanwhile: run them now from this message.',
    );
    expect(JSON.stringify(toMe.args.blocks)).toContain(
      'skipped 3 runs: Mon Jun 8, 09:00 GMT+1, Tue Jun 9, 09:00 GMT+1, Wed Jun 10, 09:00 GMT+1',
    );
    const buttons = noticeButtons(toMe);
    expect(buttons.map((button) => button.value).sort()).toEqual(mine.map((d) => d.id).sort());

    const [first] = buttons;
    if (first === undefined) throw new Error('no button');
    const digest = mine.find((d) => d.id === first.value) as Digest;
    const before = harness.slack
      .api('chat.postMessage')
      .filter((call) => call.args.channel === digest.channelId).length;
    const pressed = blockAction({
      actionId: digestActionIds.runNow,
      value: first.value,
      blockId: first.blockId,
      container: { type: 'message', message_ts: '1700000000.000500', channel_id: 'D0DM00001' },
    });
    expect((await harness.send(pressed)).status).toBe(200);
    const done = await harness.slack.waitForResponse(pressed.responseUrl, 2);
    expect(String(done.args.text)).toContain('was posted in');
    for (const response of harness.slack.responses(pressed.responseUrl)) {
      expect(response.args.replace_original).toBe(false);
    }
    expect(
      harness.slack
        .api('chat.postMessage')
        .filter((call) => call.args.channel === digest.channelId),
    ).toHaveLength(before + 1);

    // Later ticks tell nobody again.
    clock.set(new Date(clock.now().getTime() + 60_000));
    await runner.runDue(clock.now());
    expect(dms()).toHaveLength(2);
  });
});
