import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/logger.ts';
import type { LookupRequest } from '../../../../src/model/lookup.ts';
import {
  AgentConversations,
  agentConversationTtlMs,
  agentThreadTtlMs,
} from '../../../../src/slack/listeners/agent/conversations.ts';
import type { AgentState } from '../../../../src/store/agent-state.ts';
import type { Database } from '../../../../src/store/database.ts';
import { openSqliteDatabase } from '../../../../src/store/sql/sqlite.ts';

const previous = { databases: ['#hcsm'] } as unknown as LookupRequest;
const start = new Date('2026-11-21T15:00:00Z');

/** Conversations of one instance without a store: memory alone remembers. */
function inMemory(limit?: number): AgentConversations {
  return new AgentConversations({
    state: () => undefined,
    logger: silentLogger,
    now: () => start,
    ...(limit === undefined ? {} : { limit }),
  });
}

describe('AgentConversations', () => {
  it('knows a DM as an agent conversation once its Messages tab opened', async () => {
    const conversations = inMemory();
    expect(await conversations.isAgentConversation('D1')).toBe(false);
    await conversations.tabOpened('D1');
    expect(await conversations.isAgentConversation('D1')).toBe(true);
  });

  it('remembers each thread’s previous question, forgetting the least recently used', async () => {
    const conversations = inMemory(2);
    await conversations.remember('D1', '1.0', { previous, titled: true });
    await conversations.remember('D1', '2.0', { previous, titled: true });
    expect((await conversations.thread('D1', '1.0')).previous).toBe(previous);
    await conversations.remember('D1', '3.0', { previous, titled: true });
    expect(await conversations.thread('D1', '2.0')).toEqual({ titled: false });
    expect((await conversations.thread('D1', '1.0')).titled).toBe(true);
  });

  it('remembers where Slack refused to stream', () => {
    const conversations = inMemory();
    conversations.refuseStreaming('D1', 'not_allowed');
    expect(conversations.streamingRefused('D1')).toBe(true);
    expect(conversations.streamingRefused('D2')).toBe(false);
  });

  it('remembers where Slack refused agent sessions, apart from streaming', () => {
    const conversations = inMemory();
    conversations.refuseSessions('D1', 'unknown_method');
    expect(conversations.sessionsRefused('D1')).toBe(true);
    expect(conversations.sessionsRefused('D2')).toBe(false);
    expect(conversations.streamingRefused('D1')).toBe(false);
  });
});

describe('AgentConversations over the store', () => {
  let store: Database;
  let now = start;
  const instance = (state: () => AgentState | undefined = () => store.agentState) =>
    new AgentConversations({ state, logger: silentLogger, now: () => now });

  beforeEach(async () => {
    store = openSqliteDatabase({ path: ':memory:' });
    await store.migrate();
    now = start;
  });
  afterEach(async () => {
    await store.close();
  });

  it('knows a tab opened on another instance, or before a restart', async () => {
    await instance().tabOpened('D1');
    const other = instance();
    expect(await other.isAgentConversation('D1')).toBe(true);
    expect(await other.isAgentConversation('D2')).toBe(false);
  });

  it('sees a tab that opened on another instance after it first said no', async () => {
    const other = instance();
    expect(await other.isAgentConversation('D1')).toBe(false);
    await instance().tabOpened('D1');
    expect(await other.isAgentConversation('D1')).toBe(true);
  });

  it('forgets a conversation whose tab has not opened for its time to live', async () => {
    await instance().tabOpened('D1');
    now = new Date(start.getTime() + agentConversationTtlMs);
    expect(await instance().isAgentConversation('D1')).toBe(false);
  });

  it('reads a thread as the instance that answered in it last left it', async () => {
    const first = instance();
    const second = instance();
    await first.remember('D1', '1.0', { titled: true });
    expect(await second.thread('D1', '1.0')).toEqual({ titled: true });
    await second.remember('D1', '1.0', { previous, titled: true });
    expect(await first.thread('D1', '1.0')).toEqual({ previous, titled: true });
    now = new Date(start.getTime() + agentThreadTtlMs);
    expect(await instance().thread('D1', '1.0')).toEqual({ titled: false });
  });

  it('falls back on what it saw itself when the store fails', async () => {
    const broken = instance(() => {
      throw new Error('the store is not open yet');
    });
    await broken.tabOpened('D1');
    await broken.remember('D1', '1.0', { previous, titled: true });
    expect(await broken.isAgentConversation('D1')).toBe(true);
    expect(await broken.thread('D1', '1.0')).toEqual({ previous, titled: true });
    expect(await broken.isAgentConversation('D2')).toBe(false);
  });
});
