import { describe, expect, it } from 'vitest';
import type { LookupRequest } from '../../../../src/model/lookup.ts';
import { AgentConversations } from '../../../../src/slack/listeners/agent/conversations.ts';

const previous = { databases: ['#hcsm'] } as unknown as LookupRequest;

describe('AgentConversations', () => {
  it('knows a DM as an agent conversation once its Messages tab opened', () => {
    const conversations = new AgentConversations();
    expect(conversations.isAgentConversation('D1')).toBe(false);
    conversations.tabOpened('D1');
    expect(conversations.isAgentConversation('D1')).toBe(true);
  });

  it('remembers each thread’s previous question, forgetting the least recently used', () => {
    const conversations = new AgentConversations(2);
    conversations.remember('D1', '1.0', { previous, titled: true });
    conversations.remember('D1', '2.0', { previous, titled: true });
    expect(conversations.thread('D1', '1.0').previous).toBe(previous);
    conversations.remember('D1', '3.0', { previous, titled: true });
    expect(conversations.thread('D1', '2.0')).toEqual({ titled: false });
    expect(conversations.thread('D1', '1.0').titled).toBe(true);
  });

  it('stops the thread’s running lookup with the reason given, and only that one', () => {
    const conversations = new AgentConversations();
    const running = conversations.start('D1', '1.0');
    const other = conversations.start('D1', '2.0');
    const reason = new Error('stop');
    expect(conversations.stop('D1', '1.0', reason)).toBe(true);
    expect(running.signal.reason).toBe(reason);
    expect(other.signal.aborted).toBe(false);
    running.release();
    expect(conversations.stop('D1', '1.0', reason)).toBe(false);
  });

  it('remembers where Slack refused to stream', () => {
    const conversations = new AgentConversations();
    conversations.refuseStreaming('D1', 'not_allowed');
    expect(conversations.streamingRefused('D1')).toBe(true);
    expect(conversations.streamingRefused('D2')).toBe(false);
  });

  it('remembers where Slack refused agent sessions, apart from streaming', () => {
    const conversations = new AgentConversations();
    conversations.refuseSessions('D1', 'unknown_method');
    expect(conversations.sessionsRefused('D1')).toBe(true);
    expect(conversations.sessionsRefused('D2')).toBe(false);
    expect(conversations.streamingRefused('D1')).toBe(false);
  });
});
