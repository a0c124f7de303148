/**
 * Digests through the running app when the app itself fails: an analytics outage holds a
 * workspace's digests and tells its admins once, and an uninstall pauses them until the app is
 * back. Slack is faked through `fetch`; the analytics service is the sandbox behind a switch.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import type { AnalyticsApi, InfluencersQuery } from '../../src/analytics/types.ts';
import { CredentialsRejectedError } from '../../src/errors.ts';
import type { Digest, NewDigest } from '../../src/model/digest.ts';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import type { Database } from '../../src/store/database.ts';
import { digestInput } from '../digests/helpers.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { eventCallback, slashCommand, teamId, userId } from '../helpers/payloads.ts';

const adminId = 'U0ADMIN01';
const plainId = 'U0PLAIN01';
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let sandbox: Sandbox;
let client: AnalyticsClient;
/** While set, every analytics question is refused as if the credentials were revoked. */
let credentialsRejected = false;
const analytics: AnalyticsApi & { close(): Promise<void> } = {
  getInfluencers: (query: InfluencersQuery) =>
    credentialsRejected
      ? Promise.reject(new CredentialsRejectedError(401))
      : client.getInfluencers(query),
  close: () => client.close(),
};

let harness: Harness;
let store: Database;
let channelSequence = 0;
const freshChannel = () => `C0LIFE${String(++channelSequence).padStart(4, '0')}`;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  client = new AnalyticsClient({
    baseUrl: sandbox.url,
    clientId: demoClient.id,
    clientSecret: demoClient.secret,
    responseCacheTtlMs: 0,
  });
  harness = await startHarness({
    sharedSandbox: sandbox,
    env: { DIGESTS_SQLITE_PATH: ':memory:', DIGESTS_ENABLED: 'false' },
    overrides: {
      analytics,
      digests: {
        clock: { now: () => new Date(), sleep: realSleep },
        runnerOptions: { backoffMs: 5, channelIntervalMs: 0 },
      },
    },
  });
  harness.slack.override('users.info', (args) => ({
    ok: true,
    user: { id: args.user, tz: 'UTC', is_admin: args.user === adminId, is_owner: false },
  }));
  store = harness.running.digests.database;
});

afterAll(async () => {
  await harness?.close();
  await sandbox?.close();
});

beforeEach(() => {
  credentialsRejected = false;
});

function daily(overrides: Partial<NewDigest> = {}): NewDigest {
  return digestInput({
    teamId,
    channelId: freshChannel(),
    creatorId: userId,
    schedule: { kind: 'cron', expression: '0 9 * * *', zone: 'UTC', cadence: 'daily' },
    nextRunAt: new Date('2026-11-20T09:00:00Z'),
    ...overrides,
  });
}

const posts = (channel: string): SlackCall[] =>
  harness.slack.api('chat.postMessage').filter((call) => call.args.channel === channel);

describe('an analytics outage through the running app', () => {
  it('holds three slots, tells the admin among the creators once by DM, then posts each digest once', async () => {
    const digests = [
      await store.digests.create(daily({ creatorId: adminId }), new Date('2026-11-19T12:00:00Z')),
      await store.digests.create(daily({ creatorId: plainId }), new Date('2026-11-19T12:00:00Z')),
    ];
    const runner = harness.running.digests.runner;
    credentialsRejected = true;
    for (const day of ['2026-11-20', '2026-11-21', '2026-11-22']) {
      await runner.runDue(new Date(`${day}T09:00:30Z`));
    }
    for (const digest of digests) expect(posts(digest.channelId)).toEqual([]);
    expect(posts(adminId)).toHaveLength(1);
    expect(String(posts(adminId)[0]?.args.text)).toContain(
      "Scheduled digests in this workspace are on hold: the analytics service rejected this app's credentials.",
    );
    expect(posts(plainId)).toEqual([]);

    credentialsRejected = false;
    const report = await runner.runDue(new Date('2026-11-23T09:00:30Z'));
    expect(report).toMatchObject({ probes: 1, posted: 2, failed: 0 });
    for (const digest of digests) {
      expect(posts(digest.channelId)).toHaveLength(1);
      expect(await store.digests.get(digest.id)).toMatchObject({
        status: 'active',
        consecutiveFailures: 0,
        lastRun: { slot: new Date('2026-11-23T09:00:00Z'), outcome: 'posted' },
      });
      expect(
        await store.runs.getDelivery(digest.id, new Date('2026-11-22T09:00:00Z')),
      ).toMatchObject({
        status: 'skipped',
        skipReason: { kind: 'outage', cause: 'analytics_credentials_rejected' },
      });
    }
    // Told of the outage once; then, as every creator, once of the slots it skipped.
    expect(posts(adminId)).toHaveLength(2);
    expect(posts(plainId)).toHaveLength(1);
    for (const creator of [adminId, plainId]) {
      expect(String(posts(creator).at(-1)?.args.text)).toContain(
        'were skipped meanwhile: run them now from this message.',
      );
    }
  });
});

describe('uninstall, then reinstall', () => {
  it('pauses the workspace’s digests on app_uninstalled and resumes them on its next request', async () => {
    const digest = await store.digests.create(
      daily({ creatorId: 'U0CREATOR7', nextRunAt: new Date(Date.now() + 3_600_000) }),
      new Date(),
    );
    const uninstalled = await harness.send(
      eventCallback({ event: { type: 'app_uninstalled', event_ts: '1700000000.000100' } }),
    );
    expect(uninstalled.status).toBe(200);
    await waitUntil(async () => (await store.digests.get(digest.id))?.status === 'paused');
    expect((await store.digests.get(digest.id))?.pauseReason).toEqual({ kind: 'app_uninstalled' });
    expect(
      await harness.running.digests.runner.runDue(new Date(Date.now() + 7_200_000)),
    ).toMatchObject({
      posted: 0,
    });
    expect(posts(digest.channelId)).toEqual([]);

    // Reinstalled: the first request from the workspace shows the app works there again.
    const { body, contentType } = slashCommand({ text: 'help' });
    expect((await harness.send({ body, contentType })).status).toBe(200);
    await waitUntil(async () => (await store.digests.get(digest.id))?.status === 'active');
    await harness.slack.waitFor((call) => call.args.channel === 'U0CREATOR7');
    const [dm] = posts('U0CREATOR7');
    expect(String(dm?.args.text)).toBe(
      `The app works in this workspace again: your digests ${digest.id} run again.`,
    );
    const resumed = (await store.digests.get(digest.id)) as Digest;
    expect(resumed.pauseReason).toBeUndefined();
    expect(resumed.nextRunAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('leaves digests alone when only people’s tokens are revoked, and pauses them when the bot’s is', async () => {
    const digest = await store.digests.create(daily(), new Date());
    await harness.send(
      eventCallback({ event: { type: 'tokens_revoked', tokens: { oauth: ['U0SOMEONE'] } } }),
    );
    await realSleep(100);
    expect((await store.digests.get(digest.id))?.status).toBe('active');
    await harness.send(
      eventCallback({ event: { type: 'tokens_revoked', tokens: { bot: ['U0BOT0001'] } } }),
    );
    await waitUntil(async () => (await store.digests.get(digest.id))?.status === 'paused');
    expect((await store.digests.get(digest.id))?.pauseReason).toEqual({ kind: 'tokens_revoked' });
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await realSleep(20);
  }
}
