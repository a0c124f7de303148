/**
 * A watch of one account is checked at creation against what the service saw in the last 30
 * days: a handle it never ranked (a typo, most often) is created, and its creator told.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import type { AnalyticsApi } from '../../src/analytics/types.ts';
import { NetworkError } from '../../src/errors.ts';
import { answerDigestCommand } from '../../src/flows/digest-commands.ts';
import { type DigestAccess, DigestManager } from '../../src/flows/digest-manager.ts';
import { silentLogger } from '../../src/logger.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { type DigestCommand, parseDigestCommand } from '../../src/parsing/digest.ts';
import { toPlainText } from '../../src/render/text.ts';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import type { Database } from '../../src/store/database.ts';
import { openSqliteDatabase } from '../../src/store/sql/sqlite.ts';

const now = new Date('2026-11-21T15:30:00Z');
const access: DigestAccess = { assertCanPost: async () => {}, isAdmin: async () => false };
const unseenWords =
  'The analytics service has not ranked @NoSuchHandle99 in #hcsm in the last 30 days';

let sandbox: Sandbox;
let analytics: AnalyticsClient;
let store: Database;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', now: () => now });
  analytics = new AnalyticsClient({
    baseUrl: sandbox.url,
    clientId: demoClient.id,
    clientSecret: demoClient.secret,
    responseCacheTtlMs: 0,
  });
});

afterAll(async () => {
  await analytics?.close();
  await sandbox?.close();
});

beforeEach(async () => {
  store = openSqliteDatabase({ path: ':memory:' });
  await store.migrate();
  return async () => {
    await store.close();
  };
});

function command(text: string): Extract<DigestCommand, { kind: 'create' }> {
  const parsed = parseDigestCommand(text, { now, zone: 'Europe/London' });
  if (parsed instanceof Error || parsed.kind !== 'create') throw new Error(`${text}: ${parsed}`);
  return parsed;
}

async function create(text: string, service: AnalyticsApi = analytics): Promise<SlackMessage> {
  const manager = new DigestManager({
    db: store,
    analytics: service,
    now: () => now,
    runNow: async () => ({ outcome: 'already' }),
  });
  const sent: SlackMessage[] = [];
  await answerDigestCommand(
    {
      manager,
      logger: silentLogger,
      now: () => now,
      caller: { teamId: 'T1', userId: 'U1' },
      channelId: 'C1',
      directMessage: async () => 'D1',
      access,
      commandName: '/influencers',
    },
    command(text),
    async (message) => {
      sent.push(message);
      return true;
    },
  );
  expect(sent).toHaveLength(1);
  return sent[0] as SlackMessage;
}

describe('a watch of one account, at its creation', () => {
  it('is created and tells its creator when the service has not ranked the handle in 30 days', async () => {
    const words = toPlainText(await create('watch @NoSuchHandle99 in #hcsm'));
    expect(words).toContain('created');
    expect(words).toContain(unseenWords);
    expect(await store.digests.listByCreator('T1', 'U1')).toHaveLength(1);
  });

  it('says nothing more for a handle the service ranked, whatever its case', async () => {
    const end = now.toISOString().replace(/\.\d+Z$/, 'Z');
    const start = new Date(now.getTime() - 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const ranked = await analytics.getInfluencers({
      databases: ['#hcsm'],
      start,
      end,
      timezone: 'UTC',
      limit: 20,
    });
    const handle = ranked.influencers.at(-1)?.screenName ?? '';
    expect(handle).not.toBe('');
    const words = toPlainText(await create(`watch @${handle.toLowerCase()} in #hcsm`));
    expect(words).toContain('created');
    expect(words).not.toContain('has not ranked');
  });

  it('says nothing of the handle when the service cannot be reached', async () => {
    const down: AnalyticsApi = {
      getInfluencers: async () => {
        throw new NetworkError('connect ECONNREFUSED');
      },
    };
    const words = toPlainText(await create('watch @NoSuchHandle99 in #hcsm', down));
    expect(words).toContain('could not be checked yet');
    expect(words).not.toContain('has not ranked');
  });
});
