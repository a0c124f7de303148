/**
 * `watch @handle in #hcsm` created by the slash command in the running app, run slot by slot on the
 * digest runner's clock against the sandbox's deterministic data: it DMs the person who asked
 * when that account enters or leaves the top 10, and says nothing otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsClient } from '../../src/analytics/client.ts';
import { questionFor } from '../../src/digests/questions.ts';
import { runWindow } from '../../src/digests/run-window.ts';
import type { Digest, RankedAccount } from '../../src/model/digest.ts';
import { accountMove, rankChanges } from '../../src/model/rank-changes.ts';
import type { Database } from '../../src/store/database.ts';
import { nextRuns } from '../../src/time/schedule.ts';
import { type DigestRuns, startDigestRuns } from '../helpers/digest-runs.ts';
import type { Harness } from '../helpers/harness.ts';
import { slashCommand, teamId, userId } from '../helpers/payloads.ts';

/** The DM the fake Slack opens between the app and the person who asked. */
const personalDm = `D${userId.slice(1)}`;

let harness: Harness;
let store: Database;
let sandboxClient: AnalyticsClient;

let runs: DigestRuns | undefined;

beforeAll(async () => {
  runs = await startDigestRuns();
  ({ harness, store, sandboxClient } = runs);
});

afterAll(async () => {
  await runs?.close();
});

/** Sends `text` after the slash command in `channelId`; returns what it answered. */
async function command(text: string, channelId: string): Promise<string> {
  const payload = slashCommand({ text, channelId });
  expect((await harness.send(payload)).status).toBe(200);
  return String((await harness.slack.waitForResponse(payload.responseUrl)).args.text);
}

/** The top 10 the sandbox gives a watch's question for `slot`, asked directly. */
async function topTenAt(digest: Digest, slot: Date): Promise<RankedAccount[]> {
  const result = await sandboxClient.getInfluencers(questionFor(digest, runWindow(digest, slot)));
  return result.influencers.slice(0, 10).map(({ screenName, rank }) => ({ screenName, rank }));
}

describe('a watch of one account', () => {
  it('DMs the person who asked when the account enters or leaves the top 10, and only then', async () => {
    // A plain watch with the same schedule, to read the hours ahead and choose an account that moves.
    expect(await command('watch #hcsm top 10', 'C0ACCOUNT1')).toMatch(/ created: /);
    const [plain] = await store.digests.listByChannel(teamId, 'C0ACCOUNT1');
    if (plain === undefined) throw new Error('the plain watch was not stored');
    const slots = nextRuns(plain.schedule, new Date(plain.nextRunAt.getTime() - 1), 6);
    const rankings = await Promise.all(slots.map((slot) => topTenAt(plain, slot)));
    const movers = rankings.slice(1).flatMap((ranking, i) => {
      const changes = rankChanges(rankings[i], ranking);
      return [...changes.newEntrants, ...changes.droppedOut].map((account) => account.screenName);
    });
    const watched = movers[0];
    if (watched === undefined) throw new Error('nobody entered or left the top 10 in six hours');
    await store.digests.remove(plain.id);

    const confirmation = await command(`watch @${watched} in #hcsm`, 'C0ACCOUNT2');
    expect(confirmation).toMatch(/ created: /);
    expect(await store.digests.listByChannel(teamId, 'C0ACCOUNT2')).toEqual([]);
    const [watch] = await store.digests.listByChannel(teamId, personalDm);
    expect(watch).toMatchObject({
      account: watched,
      postWhen: 'new',
      top: 10,
      creatorId: userId,
      schedule: { expression: '0 * * * *' },
    });
    if (watch === undefined) throw new Error('the watch was not stored');
    expect(harness.slack.api('conversations.open').at(-1)?.args.users).toBe(userId);

    for (const slot of slots) {
      await harness.running.digests.runner.runDue(new Date(slot.getTime() + 5_000));
    }

    const expected = rankings.slice(1).flatMap((ranking, i) => {
      const move = accountMove(watched, rankChanges(rankings[i], ranking));
      if (move === undefined) return [];
      return [
        move.kind === 'entered'
          ? `Watch: @${watched} entered the top 10 at #${move.rank}`
          : `Watch: @${watched} left the top 10 (was #${move.rank})`,
      ];
    });
    expect(expected.length).toBeGreaterThan(0);
    const posted = harness.slack
      .api('chat.postMessage')
      .filter((call) => call.args.channel === personalDm)
      .map((call) => String(call.args.text));
    expect(posted).toHaveLength(expected.length);
    posted.forEach((text, i) => {
      expect(text.startsWith(expected[i] ?? '-')).toBe(true);
    });
    const quiet = rankings.length - 1 - expected.length;
    const kinds = await Promise.all(
      slots.map(async (slot) => (await store.runs.getDelivery(watch.id, slot))?.skipReason?.kind),
    );
    expect(kinds[0]).toBe('first_ranking');
    expect(kinds.filter((kind) => kind === 'account_steady')).toHaveLength(quiet);
  });
});
