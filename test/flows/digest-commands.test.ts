import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerDigestCommand, type DigestCommandContext } from '../../src/flows/digest-commands.ts';
import { DigestManager } from '../../src/flows/digest-manager.ts';
import { silentLogger } from '../../src/logger.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { digestActionsBlockPrefix, digestListPageIds } from '../../src/render/ids.ts';
import type { Database } from '../../src/store/database.ts';
import { openSqliteDatabase } from '../../src/store/sql/sqlite.ts';
import { digestInput } from '../digests/helpers.ts';

const now = new Date('2026-11-21T15:30:00Z');
let store: Database;
let manager: DigestManager;

beforeEach(async () => {
  store = openSqliteDatabase({ path: ':memory:' });
  await store.migrate();
  manager = new DigestManager({
    db: store,
    now: () => now,
    runNow: async () => ({ outcome: 'posted', ts: '1.2' }),
  });
});

afterEach(async () => {
  await store.close();
});

function context(overrides: Partial<DigestCommandContext> = {}): DigestCommandContext {
  return {
    manager,
    logger: silentLogger,
    now: () => now,
    caller: { teamId: 'T1', userId: 'U1' },
    channelId: 'C1',
    access: { assertCanPost: async () => undefined, isAdmin: async () => false },
    commandName: '/influencers',
    ...overrides,
  };
}

async function answer(overrides: Partial<DigestCommandContext> = {}): Promise<SlackMessage[]> {
  const sent: SlackMessage[] = [];
  await answerDigestCommand(context(overrides), { kind: 'list' }, async (message) => {
    sent.push(message);
    return true;
  });
  return sent;
}

const shown = (message: SlackMessage) =>
  message.blocks.flatMap((block) =>
    block.type === 'actions' && block.block_id?.startsWith(digestActionsBlockPrefix)
      ? [block.block_id.slice(digestActionsBlockPrefix.length)]
      : [],
  );

describe('digests, when the channel has more than one message holds', () => {
  beforeEach(async () => {
    for (let i = 0; i < 30; i++) {
      await store.digests.create(digestInput({ teamId: 'T1', channelId: 'C1' }), now);
    }
  });

  it('answers with the first page and a Next button', async () => {
    const [first, ...rest] = await answer();
    expect(rest).toEqual([]);
    expect(shown(first as SlackMessage).length).toBeLessThan(30);
    expect(JSON.stringify(first)).toContain(digestListPageIds.next);
  });

  it('sends every page to a surface that prints them all (the console)', async () => {
    const pages = await answer({ listPages: 'all' });
    expect(pages.length).toBe(2);
    const ids = (await store.digests.listByChannel('T1', 'C1')).map((digest) => digest.id);
    expect(pages.flatMap(shown)).toEqual(ids);
    expect(JSON.stringify(pages)).not.toContain(digestListPageIds.next);
  });
});

describe('a digest typed in the app’s DM', () => {
  it('is refused with a canvas, which a DM cannot keep, and nothing is stored', async () => {
    const parsed = parseDigestCommand('digest #hcsm every monday at 9am canvas', {
      now,
      zone: 'Europe/London',
    });
    if (parsed instanceof Error || parsed.kind !== 'create') throw new Error('a new digest');
    const sent: SlackMessage[] = [];
    await answerDigestCommand(
      context({ channelId: 'D1', inDirectMessage: true, directMessage: async () => 'D1' }),
      parsed,
      async (message) => {
        sent.push(message);
        return true;
      },
    );
    expect(sent.map((message) => message.text).join(' ')).toContain('keeps no channel canvas');
    expect(await store.digests.listByChannel('T1', 'D1')).toEqual([]);
  });
});
