import { describe, expect, it } from 'vitest';
import { AssistantThreads } from '../../../../src/slack/listeners/assistant/threads.ts';

type StoreArgs = Parameters<AssistantThreads['get']>[0];
const started = (channel: string, ts: string, context: Record<string, unknown>) =>
  ({
    payload: { assistant_thread: { channel_id: channel, thread_ts: ts, context } },
  }) as never as StoreArgs;
const message = (channel: string, ts: string) =>
  ({ payload: { channel, thread_ts: ts } }) as never as StoreArgs;

describe('AssistantThreads', () => {
  it('keeps each thread’s own context, the latest one saved', async () => {
    const threads = new AssistantThreads();
    await threads.save(started('D1', '1.1', { channel_id: 'C1' }));
    await threads.save(started('D1', '2.2', { channel_id: 'C2' }));
    await threads.save(started('D1', '1.1', { channel_id: 'C3' }));
    expect(await threads.get(message('D1', '1.1'))).toEqual({ channel_id: 'C3' });
    expect(await threads.get(message('D1', '2.2'))).toEqual({ channel_id: 'C2' });
    expect(await threads.get(message('D1', '9.9'))).toEqual({});
    expect(threads.has('D1', '2.2')).toBe(true);
    expect(threads.has('D1', '9.9')).toBe(false);
  });

  it('titles a thread once, and forgets the oldest thread past its bound', async () => {
    const threads = new AssistantThreads(2);
    expect(threads.firstTitle('D1', '1.1')).toBe(true);
    expect(threads.firstTitle('D1', '1.1')).toBe(false);
    await threads.save(started('D1', '1.1', { channel_id: 'C1' }));
    expect(threads.firstTitle('D1', '1.1')).toBe(false);
    threads.firstTitle('D1', '2.2');
    threads.firstTitle('D1', '3.3');
    expect(await threads.get(message('D1', '1.1'))).toEqual({});
    expect(threads.firstTitle('D1', '1.1')).toBe(true);
  });
});
