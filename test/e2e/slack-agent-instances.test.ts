/**
 * Agent conversations across instances sharing one store, as dynos share one database: Stop
 * pressed while Slack sends the event to another instance than the one running the lookup, and a
 * Messages tab left open while the app restarts or another instance takes the next question. On
 * SQLite always, and on PostgreSQL where TEST_DATABASE_URL is set. Each instance's poll for Stop
 * runs on a timer the test fires.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderUnderstood } from '../../src/render/lookups/agent.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import type { Database } from '../../src/store/database.ts';
import { type StoreUnderTest, storesUnderTest } from '../digests/helpers.ts';
import type { FakeStream } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { fixedNow, now, request, startLookupSandbox } from '../helpers/lookups.ts';
import { ManualTimer } from '../helpers/manual-timer.ts';
import {
  agentSessionStoppedEvent,
  directMessageEvent,
  eventCallback,
  messagesTabOpenedEvent,
} from '../helpers/payloads.ts';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startLookupSandbox();
});

afterAll(async () => {
  await sandbox?.close();
});

/** An instance of the app over `store`, its Stop poll on `timer`. */
async function instance(store: Database, timer = new ManualTimer()): Promise<Harness> {
  return startHarness({
    env: { RESPONSE_CACHE_TTL_MS: '0', LOOKUP_TIMEOUT_MS: '10000' },
    sharedSandbox: sandbox,
    overrides: { now, digests: { database: store }, stopPoll: timer.schedule() },
  });
}

async function openTab(h: Harness, channel: string): Promise<void> {
  await h.send(eventCallback({ event: messagesTabOpenedEvent(channel) }));
  await h.slack.waitFor(
    (c) => c.method === 'assistant.threads.setSuggestedPrompts' && c.args.channel_id === channel,
  );
}

/** Types `text` in the DM `channel` (in a thread when given) and returns the message's ts. */
async function ask(h: Harness, channel: string, text: string, threadTs?: string): Promise<string> {
  const event = directMessageEvent(text, {
    channel,
    ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
  });
  await h.send(eventCallback({ event }));
  return event.ts;
}

/** The streams `h` stopped in the thread, once there are `count` of them. */
async function stoppedStreams(
  h: Harness,
  channel: string,
  threadTs: string,
  count = 1,
): Promise<FakeStream[]> {
  const stops = () =>
    h.slack.api('chat.stopStream').filter((c) => c.args.channel === channel).length;
  await h.slack.waitFor(() => stops() >= count, 15_000);
  return [...h.slack.streams.values()].filter(
    (s) => s.channel === channel && s.threadTs === threadTs && s.stopped,
  );
}

for (const adapter of storesUnderTest) {
  describe.skipIf(!adapter.enabled)(
    `agent conversations across instances (${adapter.name})`,
    () => {
      let db: StoreUnderTest | undefined;
      const instances: Harness[] = [];
      /** A new instance, on a connection of its own to the test's database. */
      const start = async (timer?: ManualTimer): Promise<Harness> => {
        let store: Database;
        if (db === undefined) {
          db = await adapter.open();
          store = db.store;
        } else {
          store = await db.sibling();
        }
        const h = await instance(store, timer);
        instances.push(h);
        return h;
      };

      afterEach(async () => {
        await Promise.all(instances.splice(0).map((h) => h.close()));
        await db?.close();
        db = undefined;
      });

      it('stops a lookup running on one instance when Stop reaches another', async () => {
        const timer = new ManualTimer();
        const a = await start(timer);
        const b = await start();
        const channel = 'D0SHARED01';
        await openTab(a, channel);
        sandbox.script({ kind: 'slow-headers', ms: 8_000 });
        const ts = await ask(a, channel, '#bcsm yesterday');
        await a.slack.waitFor(
          (c) =>
            c.method === 'chat.appendStream' &&
            c.args.channel === channel &&
            JSON.stringify(c.args.chunks).includes('in_progress'),
        );
        const pressed = Date.now();
        await b.send(eventCallback({ event: agentSessionStoppedEvent(channel, ts) }));
        await b.settled();
        await timer.fire();
        const [stream] = await stoppedStreams(a, channel, ts);
        expect(Date.now() - pressed).toBeLessThan(5_000);
        expect(JSON.stringify(stream?.blocks)).toContain('Stopped: you pressed Stop');
        expect(a.logs.some((line) => line.includes('lookup stopped by the person'))).toBe(true);
        expect(a.slack.sessions.get(channel, ts)?.statuses).toEqual(['processing', 'active']);
        // B ran nothing there: the session was left to the answer, which moved it.
        expect(b.slack.api('agents.sessions.setStatus')).toEqual([]);
        await a.settled();
        expect(timer.pending).toEqual([]);
      });

      it('answers an open Messages tab as an agent on another instance, and after a restart', async () => {
        const first = await start();
        const channel = 'D0SHARED02';
        await openTab(first, channel);
        const ts = await ask(first, channel, '#hcsm last month by impressions');
        await stoppedStreams(first, channel, ts);

        // The thread's follow-up reaches another instance, which never saw the tab open.
        const other = await start();
        await ask(other, channel, 'and for #bcsm?', ts);
        const [followUp] = await stoppedStreams(other, channel, ts);
        expect(followUp?.chunks[0]).toEqual({
          type: 'markdown_text',
          text: renderUnderstood(request('#bcsm last month by impressions'), fixedNow),
        });
        expect(other.slack.api('agents.sessions.rename')).toEqual([]);
        expect(other.slack.api('chat.postMessage')).toEqual([]);

        // Every instance restarts: the tab, still open, keeps its agent answers.
        await Promise.all(instances.splice(0).map((h) => h.close()));
        const restarted = await start();
        const next = await ask(restarted, channel, '#quiet yesterday');
        const [stream] = await stoppedStreams(restarted, channel, next);
        expect(String(stream?.chunks[0]?.text)).toContain('**#quiet**');
        expect(restarted.slack.api('chat.postMessage')).toEqual([]);
        expect(restarted.slack.api('chat.update')).toEqual([]);
      });
    },
  );
}
