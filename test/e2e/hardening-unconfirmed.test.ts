/**
 * Issue 18, item 8, over signed HTTP against the fake Slack and a real PostgreSQL: an instance
 * killed mid-post during a tick of 30 digests leaves 2 slots `posting`. Once its lease ends, the
 * running app tells each digest's creator by DM, with "Post it now"; pressing it posts the slot
 * once, a second press and someone else's press say it was done, nothing is posted twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyTeam } from '../../src/digests/per-team.ts';
import { DigestRunner } from '../../src/digests/runner.ts';
import type { Digest } from '../../src/model/digest.ts';
import { renderDigestMessage, renderDigestPaused } from '../../src/render/digests/digest-post.ts';
import { digestActionIds, digestSlotValue } from '../../src/render/ids.ts';
import type { Database } from '../../src/store/database.ts';
import {
  announcePostgresSkip,
  DyingPoster,
  digestInput,
  FakeAnalytics,
  FakeClock,
  TestPostgres,
  testDatabaseUrl,
  untilKilledMidPost,
} from '../digests/helpers.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { blockAction, teamId, userId } from '../helpers/payloads.ts';

const slot = new Date('2026-06-08T08:00:00Z');
const leaseMs = 5 * 60_000;
const adminId = 'U0ADMIN01';

function buttonValues(call: SlackCall): string[] {
  const blocks = (call.args.blocks ?? []) as {
    type: string;
    elements?: { action_id?: string; value?: string }[];
  }[];
  return blocks.flatMap((block) =>
    (block.elements ?? [])
      .filter((element) => element.action_id === digestActionIds.postUnconfirmed)
      .map((element) => element.value ?? ''),
  );
}

/** "Post it now" pressed in the DM, by `who`. */
function press(value: string, who = userId) {
  const payload = blockAction({
    actionId: digestActionIds.postUnconfirmed,
    value,
    container: { type: 'message', message_ts: '1700000000.000900', channel_id: 'D0DM00001' },
  });
  if (who === userId) return payload;
  const form = new URLSearchParams(payload.body);
  const body = JSON.parse(form.get('payload') ?? '{}') as Record<string, unknown>;
  body.user = { id: who, username: 'admin', team_id: teamId };
  return { ...payload, body: new URLSearchParams({ payload: JSON.stringify(body) }).toString() };
}

announcePostgresSkip();
describe.skipIf(!testDatabaseUrl)('a digest post cut off by a killed instance', () => {
  const database = new TestPostgres();
  const clock = new FakeClock('2026-06-08T08:00:05Z');
  let store: Database;
  let harness: Harness;
  const digests: Digest[] = [];

  beforeAll(async () => {
    store = database.open();
    await store.migrate();
    harness = await startHarness({
      overrides: {
        now: () => clock.now(),
        digests: { database: store, clock, runnerOptions: { leaseMs, channelIntervalMs: 0 } },
      },
    });
    harness.slack.override('users.info', (args) => ({
      ok: true,
      user: { id: args.user, tz: 'Europe/London', is_admin: args.user === adminId },
    }));
    for (let i = 0; i < 30; i++) {
      digests.push(
        await store.digests.create(
          digestInput({
            teamId,
            creatorId: userId,
            channelId: `C0DIG${String(i).padStart(4, '0')}`,
            nextRunAt: slot,
          }),
          clock.now(),
        ),
      );
    }
  });

  afterAll(async () => {
    await harness?.close();
    await database.drop();
  });

  it('tells the creator once, posts the slot once when asked, and says so to a second press', async () => {
    const hung = ['C0DIG0007', 'C0DIG0019'];
    const dying = new DyingPoster(clock, hung);
    const killed = new DigestRunner({
      db: database.open(),
      analytics: new FakeAnalytics(),
      posters: everyTeam(dying),
      clock,
      renderDigest: renderDigestMessage,
      renderPauseNotice: renderDigestPaused,
      options: { owner: 'instance-killed', leaseMs, channelIntervalMs: 0 },
    });
    void killed.runDue(clock.now());
    await untilKilledMidPost(store, dying, digests, slot);
    expect(dying.hung).toHaveLength(2);

    const runner = harness.running.digests.runner;
    clock.advance(leaseMs + 60_000);
    expect(await runner.runDue(clock.now())).toMatchObject({
      claimed: 2,
      posted: 0,
      unconfirmed: 2,
    });
    const dms = harness.slack
      .api('chat.postMessage')
      .filter((call) => call.args.channel === userId);
    const hungDigests = digests
      .filter((digest) => hung.includes(digest.channelId))
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(dms.map(buttonValues)).toEqual(
      hungDigests.map((digest) => [digestSlotValue(digest.id, slot)]),
    );
    expect(String(dms[0]?.args.text)).toContain('may not have posted its run of');
    await runner.runDue(clock.now());
    expect(harness.slack.api('chat.postMessage')).toHaveLength(2);

    const [first, second] = hungDigests;
    if (first === undefined || second === undefined) throw new Error('two hung digests');
    const pressed = press(digestSlotValue(first.id, slot));
    expect((await harness.send(pressed)).status).toBe(200);
    const result = await harness.slack.waitForResponse(pressed.responseUrl);
    expect(result.args).toMatchObject({ replace_original: true });
    expect(String(result.args.text)).toMatch(
      /^:white_check_mark: Posted the run of .* in <#C0DIG00\d\d>\.$/,
    );
    const posts = () =>
      harness.slack.api('chat.postMessage').filter((call) => call.args.channel === first.channelId);
    expect(posts()).toHaveLength(1);

    const again = press(digestSlotValue(first.id, slot));
    await harness.send(again);
    expect(String((await harness.slack.waitForResponse(again.responseUrl)).args.text)).toMatch(
      /^You already posted the run of .* so it was not posted twice\.$/,
    );
    const byAdmin = press(digestSlotValue(first.id, slot), adminId);
    await harness.send(byAdmin);
    expect(String((await harness.slack.waitForResponse(byAdmin.responseUrl)).args.text)).toContain(
      `<@${userId}> already posted the run of`,
    );
    expect(posts()).toHaveLength(1);
    expect(await store.runs.getDelivery(first.id, slot)).toMatchObject({
      status: 'posted',
      repostBy: userId,
      messageTs: expect.any(String),
    });
    expect((await store.digests.get(first.id))?.lastRun).toMatchObject({ slot, outcome: 'posted' });

    // The other slot stays as it is until someone chooses: never posted on a guess.
    expect(await store.runs.getDelivery(second.id, slot)).toMatchObject({ status: 'posting' });
    expect(
      harness.slack
        .api('chat.postMessage')
        .filter((call) => call.args.channel === second.channelId),
    ).toEqual([]);
    // Each of the other 28 was posted once, by the instance before it died.
    expect(new Set(dying.posts.map((post) => post.channelId)).size).toBe(28);
  });
});
