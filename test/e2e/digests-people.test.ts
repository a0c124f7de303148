/**
 * Digests for a person, digests of some people, and their history, through the running app:
 * signed requests in, Slack faked through `fetch`, the sandbox as the analytics service, slots run
 * as digest-runs.ts moves them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/store/database.ts';
import { type DigestRuns, startDigestRuns } from '../helpers/digest-runs.ts';
import type { FakeSlack } from '../helpers/fake-slack.ts';
import type { Harness } from '../helpers/harness.ts';
import {
  directMessageEvent,
  eventCallback,
  homeOpenedEvent,
  slashCommand,
  teamId,
  userId,
} from '../helpers/payloads.ts';

let runs: DigestRuns;
let harness: Harness;
let slack: FakeSlack;
let store: Database;
/** The DM the fake Slack opens with the person (conversations.open). */
const personalDm = `D${userId.slice(1)}`;

beforeAll(async () => {
  runs = await startDigestRuns();
  harness = runs.harness;
  slack = harness.slack;
  store = runs.store;
});

afterAll(async () => {
  await runs?.close();
});

async function command(text: string, channelId = 'C0PERSON01'): Promise<string> {
  const payload = slashCommand({ text, channelId });
  const ack = await harness.send(payload);
  expect(ack.status).toBe(200);
  const answer = await slack.waitForResponse(payload.responseUrl);
  return JSON.stringify(answer.args);
}

const postsTo = (channel: string) =>
  slack.api('chat.postMessage').filter((call) => call.args.channel === channel);

describe('a digest to me, and its history', () => {
  it('delivers to the person’s DM with no channel check, and lists its runs newest first', async () => {
    const infoCalls = slack.api('conversations.info').length;
    const created = await command('digest #hcsm every monday at 9am in UTC to me');
    expect(created).toContain('your DM with me');
    expect(slack.api('conversations.info')).toHaveLength(infoCalls);
    const [digest] = await store.digests.listByChannel(teamId, personalDm);
    if (digest === undefined) throw new Error('no digest in the DM');
    expect(digest).toMatchObject({ creatorId: userId, channelId: personalDm });

    const runner = harness.running.digests.runner;
    await runner.runDue(new Date('2026-11-23T09:00:30Z'));
    await runner.runDue(new Date('2026-11-30T09:00:30Z'));
    expect(postsTo(personalDm).length).toBeGreaterThanOrEqual(2);

    const history = await command(`digest history ${digest.id}`);
    expect(history).toContain('The last 2 runs, newest first.');
    expect(history.indexOf('Mon Nov 30, 09:00')).toBeLessThan(history.indexOf('Mon Nov 23, 09:00'));
    expect(history).toContain('Covered Nov 23 09:00 to Nov 30 09:00 UTC');
    expect(history).toContain('Covered Nov 16 09:00 to Nov 23 09:00 UTC');
    expect(history).toContain('Top 3: @');
    const stored = await store.runs.recent(digest.id, 12);
    expect(stored.map((run) => run.outcome)).toEqual(['posted', 'posted']);

    // The Home tab shows each digest's last run, with its top 3 from the history.
    const published = slack.api('views.publish').length;
    await harness.send(eventCallback({ event: homeOpenedEvent() }));
    await slack.waitFor(() => slack.api('views.publish').length > published);
    const home = JSON.stringify(slack.api('views.publish').at(-1)?.args);
    expect(home).toContain(`*${digest.id}*`);
    expect(home).toContain('Last run: Mon Nov 30, 09:00 UTC, posted');
    expect(home).toContain(`Top 3: @${stored[0]?.entries[0]?.handle}`);
  });

  it('answers a digest command typed in the app’s DM there, and delivers the digest there', async () => {
    const before = postsTo('D0DIRECT01').length;
    const sent = await harness.send(
      eventCallback({ event: directMessageEvent('digest #bcsm every friday at 17:00 in UTC') }),
    );
    expect(sent.status).toBe(200);
    await slack.waitFor(() => postsTo('D0DIRECT01').length > before);
    const [confirmation] = postsTo('D0DIRECT01').slice(before);
    expect(JSON.stringify(confirmation?.args)).toContain('created');
    const [digest] = await store.digests.listByChannel(teamId, 'D0DIRECT01');
    expect(digest).toMatchObject({ databases: ['#bcsm'], creatorId: userId });

    const listed = postsTo('D0DIRECT01').length;
    await harness.send(eventCallback({ event: directMessageEvent('digests') }));
    await slack.waitFor(() => postsTo('D0DIRECT01').length > listed);
    expect(JSON.stringify(postsTo('D0DIRECT01').at(-1)?.args)).toContain(
      'Digests in your DM with me',
    );
  });

  it('says a digest that has not run yet has no history', async () => {
    await command('digest #lcsm every tuesday at 9am in UTC', 'C0PERSON02');
    const [digest] = await store.digests.listByChannel(teamId, 'C0PERSON02');
    if (digest === undefined) throw new Error('no digest');
    expect(await command(`digest history ${digest.id}`)).toContain('No runs yet.');
  });
});

describe('a digest of doctors, ranked by followers', () => {
  it('asks the sandbox for its top 500 and posts the doctors, saying so', async () => {
    await command('digest #hcsm every tuesday at 9am in UTC doctors by followers', 'C0DOCTORS1');
    const [digest] = await store.digests.listByChannel(teamId, 'C0DOCTORS1');
    if (digest === undefined) throw new Error('no digest');
    expect(digest).toMatchObject({
      stakeholders: { include: ['Doctor'], exclude: [] },
      orderBy: 'followers',
    });
    await harness.running.digests.runner.runDue(new Date('2026-11-24T09:00:30Z'));
    const [post] = postsTo('C0DOCTORS1');
    const shown = JSON.stringify(post?.args.blocks);
    expect(shown).toMatch(/Doctors among the top \d+ by mentions: \d+ · showing \d+/);
    expect(shown).toContain('ranked by followers, among the top');
    const [run] = await store.runs.recent(digest.id, 1);
    expect(run?.outcome).toBe('posted');
    expect(run?.entries.length).toBeGreaterThan(0);
  });
});
