import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionIds, functionIds, shortcutIds } from '../../src/render/ids.ts';
import { renderHelp } from '../../src/render/lookups/help.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { now } from '../helpers/lookups.ts';
import {
  blockAction,
  directMessageEvent,
  type EncodedBody,
  eventCallback,
  functionExecutedEvent,
  globalShortcut,
  mentionEvent,
} from '../helpers/payloads.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ sandbox: { now }, overrides: { now } });
});

afterAll(async () => {
  await harness?.close();
});

/** An interactivity body with its JSON payload changed by `change`. */
function reshaped(body: EncodedBody, change: (payload: Record<string, unknown>) => void) {
  const payload = JSON.parse(new URLSearchParams(body.body).get('payload') ?? '{}');
  change(payload);
  return {
    body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    contentType: body.contentType,
  };
}

/** An event envelope whose `event` is `event`, whatever it is. */
function envelope(event: unknown): EncodedBody {
  const body = JSON.parse(eventCallback({ event: {} }).body);
  return { body: JSON.stringify({ ...body, event }), contentType: 'application/json' };
}

/** What the app logged and posted after `send`, once every listener it started has finished. */
async function aftermath(send: () => Promise<{ status: number; text: string }>) {
  const logged = harness.logs.length;
  const called = harness.slack.calls.length;
  const response = await send();
  await harness.settled();
  const records = harness.logs
    .slice(logged)
    .map((line) => JSON.parse(line) as { level: number; msg: string });
  return {
    response: { status: response.status, text: response.text },
    // Warnings and worse: what an operator reads.
    warnings: records.filter((record) => record.level >= 40),
    calls: harness.slack.calls.slice(called),
  };
}

describe('a signed request the app cannot act on', () => {
  it.each([
    ['an event of null', () => envelope(null)],
    ['an event that is a string', () => envelope('message')],
    [
      'block_actions without a user',
      () => reshaped(blockAction({ actionId: actionIds.answerTable }), (p) => delete p.user),
    ],
    [
      'a shortcut without a user',
      () => reshaped(globalShortcut(shortcutIds.lookup), (p) => delete p.user),
    ],
    [
      'a shortcut whose user is null',
      () =>
        reshaped(globalShortcut(shortcutIds.lookup), (p) => {
          p.user = null;
        }),
    ],
    [
      'a workflow step run without an execution id',
      () => {
        const run = functionExecutedEvent(functionIds.topInfluencers, { databases: '#hcsm' });
        const event: Record<string, unknown> = { ...run.event };
        delete event.function_execution_id;
        return eventCallback({ event });
      },
    ],
  ])('answers %s with an empty 200, does nothing and logs one line', async (_name, body) => {
    const { response, warnings, calls } = await aftermath(() => harness.send(body()));
    expect(response).toEqual({ status: 200, text: '' });
    expect(calls).toEqual([]);
    expect(warnings).toEqual([expect.objectContaining({ level: 40 })]);
  });

  it.each([42, null, { text: 'help' }, ['help'], true])(
    'ignores a DM whose text is %j, quietly',
    async (text) => {
      const event = { ...directMessageEvent('help'), text };
      const { response, warnings, calls } = await aftermath(() =>
        harness.send(eventCallback({ event })),
      );
      expect(response.status).toBe(200);
      expect(calls).toEqual([]);
      expect(warnings).toEqual([]);
    },
  );

  it('ignores a mention whose text is not a string, quietly', async () => {
    const event = { ...mentionEvent('help'), text: 42 };
    const { warnings, calls } = await aftermath(() => harness.send(eventCallback({ event })));
    expect(calls).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('still answers a DM afterwards', async () => {
    await harness.send(eventCallback({ event: directMessageEvent('help') }));
    const post = await harness.slack.waitFor((call) => call.method === 'chat.postMessage');
    expect(post.args.text).toBe(renderHelp({}).text);
  });
});
