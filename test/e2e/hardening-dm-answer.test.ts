import { afterEach, describe, expect, it } from 'vitest';
import { renderHelp } from '../../src/render/lookups/help.ts';
import { renderDeliveryInDoubt, renderPending } from '../../src/render/lookups/status.ts';
import type { FakeSlack, SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { fixedNow, now, request } from '../helpers/lookups.ts';
import { directMessageEvent, eventCallback, mentionEvent } from '../helpers/payloads.ts';

/**
 * Slack answers `{ ok: false, error }` with each of `errors` to the next chat.postMessage calls,
 * in order, then posts as usual.
 */
function failPosts(slack: FakeSlack, ...errors: string[]): void {
  let posted = 0;
  slack.override('chat.postMessage', (args) => {
    const error = errors.shift();
    if (error !== undefined) return { ok: false, error };
    posted += 1;
    const ts = `1800000000.${String(posted).padStart(6, '0')}`;
    return { ok: true, channel: args.channel, ts, message: { text: args.text, ts } };
  });
}

function headerOf(call: SlackCall | undefined): string | undefined {
  const blocks = call?.args.blocks as { type: string; text?: { text: string } }[] | undefined;
  return blocks?.find((block) => block.type === 'header')?.text?.text;
}

/** Resolves once the lookups the app runs have all ended (they post their answer last). */
async function settled(h: Harness): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (h.running.deps.inFlight.size > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const posts = (h: Harness) => h.slack.api('chat.postMessage').map((call) => call.args.text);

let harness: Harness | undefined;

async function start(): Promise<Harness> {
  harness = await startHarness({ sandbox: { now }, overrides: { now } });
  return harness;
}

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('a DM answer when Slack fails a post for a moment', () => {
  const pending = renderPending(request('#hcsm last week'), { now: fixedNow }).text;

  it.each(['internal_error', 'fatal_error'])(
    'posts the answer as a new message, not the pending one again, after %s',
    async (error) => {
      const h = await start();
      failPosts(h.slack, error);
      await h.send(eventCallback({ event: directMessageEvent('#hcsm last week') }));
      const answer = await h.slack.waitFor(
        (call) => call.method === 'chat.postMessage' && headerOf(call) !== undefined,
      );
      await settled(h);
      expect(headerOf(answer)).toBe('Top influencers for #hcsm');
      expect(posts(h)).toEqual([pending, answer.args.text]);
      expect(h.slack.api('chat.update')).toEqual([]);
    },
  );

  it.each(['service_unavailable', 'request_timeout'])(
    'posts the pending message once more after %s, which posted nothing, and updates it',
    async (error) => {
      const h = await start();
      failPosts(h.slack, error);
      await h.send(eventCallback({ event: directMessageEvent('#hcsm last week') }));
      const update = await h.slack.waitFor(
        (call) => call.method === 'chat.update' && headerOf(call) !== undefined,
      );
      await settled(h);
      expect(headerOf(update)).toBe('Top influencers for #hcsm');
      expect(posts(h)).toEqual([pending, pending]);
      expect(update.args.ts).toBe('1800000000.000001');
    },
  );

  it('tells the person when the answer itself may not have been posted', async () => {
    const h = await start();
    failPosts(h.slack, 'internal_error', 'internal_error');
    await h.send(eventCallback({ event: directMessageEvent('#hcsm last week') }));
    const told = await h.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' && call.args.text === renderDeliveryInDoubt().text,
    );
    await settled(h);
    const [first, second, third] = h.slack.api('chat.postMessage');
    expect(first?.args.text).toBe(pending);
    expect(headerOf(second)).toBe('Top influencers for #hcsm');
    expect(third).toBe(told);
    expect(told.args.channel).toBe('D0DIRECT01');
    expect(h.slack.api('chat.postMessage')).toHaveLength(3);
  });

  it('posts the answer once more after service_unavailable, then tells the person', async () => {
    const h = await start();
    failPosts(h.slack, ...Array.from({ length: 4 }, () => 'service_unavailable'));
    await h.send(eventCallback({ event: directMessageEvent('#hcsm last week') }));
    await h.slack.waitFor((call) => call.args.text === renderDeliveryInDoubt().text);
    await settled(h);
    const sent = h.slack.api('chat.postMessage');
    expect(sent.map((call) => headerOf(call) ?? call.args.text)).toEqual([
      pending,
      pending,
      'Top influencers for #hcsm',
      'Top influencers for #hcsm',
      renderDeliveryInDoubt().text,
    ]);
  });

  it('posts the usage once more after service_unavailable', async () => {
    const h = await start();
    failPosts(h.slack, 'service_unavailable');
    await h.send(eventCallback({ event: directMessageEvent('help') }));
    await h.slack.waitFor(() => posts(h).length === 2);
    expect(posts(h)).toEqual([renderHelp({}).text, renderHelp({}).text]);
  });

  it('answers a mention in its thread after internal_error on the pending post', async () => {
    const h = await start();
    failPosts(h.slack, 'internal_error');
    const event = mentionEvent('#hcsm last week');
    await h.send(eventCallback({ event }));
    const answer = await h.slack.waitFor(
      (call) => call.method === 'chat.postMessage' && headerOf(call) !== undefined,
    );
    await settled(h);
    expect(answer.args.thread_ts).toBe(event.ts);
    expect(h.slack.api('chat.postMessage')).toHaveLength(2);
  });
});
