import { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { eventScopes, webApiScopes } from '../../../src/slack/web-api/scopes.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';
import {
  documentedErrors,
  slackEventScopes,
  slackMethod,
  slackMethods,
} from '../../helpers/slack-methods.ts';
import { webApiCallsInSource } from '../../helpers/web-api-calls.ts';

/** Whether `@slack/web-api`'s client has `method` (`chat.postMessage` → client.chat.postMessage). */
function inWebApi(method: string): boolean {
  let at: unknown = new WebClient();
  for (const part of method.split('.')) at = (at as Record<string, unknown> | undefined)?.[part];
  return typeof at === 'function';
}

describe("the fake Slack's method table", () => {
  it('holds every Web API method the app calls', () => {
    const calls = webApiCallsInSource();
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((method) => slackMethod(method) === undefined)).toEqual([]);
    expect(Object.keys(webApiScopes).filter((method) => slackMethod(method) === undefined)).toEqual(
      [],
    );
  });

  it("holds only methods of @slack/web-api's client, each citing its reference page", () => {
    const methods = Object.keys(slackMethods);
    expect(methods.filter((method) => !inWebApi(method))).toEqual([]);
    expect(inWebApi('chat.noSuchMethod')).toBe(false);
    for (const [method, row] of Object.entries(slackMethods)) {
      expect(row.source).toBe(`https://docs.slack.dev/reference/methods/${method}`);
      expect(documentedErrors(method).size).toBeGreaterThan(0);
    }
  });

  it("grants each method and event the scopes Slack's pages name", () => {
    for (const [method, scopes] of Object.entries(webApiScopes)) {
      const documented = slackMethod(method)?.scopes ?? [];
      expect({ method, scopes: scopes.filter((scope) => !documented.includes(scope)) }).toEqual({
        method,
        scopes: [],
      });
      if (documented.length > 0) expect(scopes.length, method).toBeGreaterThan(0);
    }
    for (const [event, documented] of Object.entries(slackEventScopes)) {
      const granted = (eventScopes as Record<string, readonly string[]>)[event];
      if (granted !== undefined)
        expect({ event, scopes: granted }).toEqual({ event, scopes: documented });
    }
  });

  it('refuses to answer a method outside the table', async () => {
    const slack = new FakeSlack();
    await expect(
      slack.fetch(`${slack.apiUrl}reactions.add`, { method: 'POST', body: 'channel=C1' }),
    ).rejects.toThrow(/reactions\.add is not in the fake's method table/);
  });

  it('refuses to answer with an error code the method does not document', async () => {
    const slack = new FakeSlack();
    slack.override('chat.update', () => ({ ok: false, error: 'no_such_code' }));
    await expect(
      slack.fetch(`${slack.apiUrl}chat.update`, { method: 'POST', body: 'channel=C1&ts=1.2' }),
    ).rejects.toThrow(/chat\.update does not document no_such_code/);
  });

  /** One call of `method` through the fake, as the Web API client sends it (a form). */
  async function call(slack: FakeSlack, method: string, args: Record<string, string>) {
    const response = await slack.fetch(`${slack.apiUrl}${method}`, {
      method: 'POST',
      body: new URLSearchParams(args).toString(),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as { ok: boolean; error?: string },
    };
  }

  it.each([
    ['agents.sessions.setStatus', { channel_id: 'D1', status: 'processing' }, 'thread_ts_required'],
    [
      'agents.sessions.setStatus',
      { channel_id: 'D1', thread_ts: '1.2', status: 'thinking' },
      'invalid_status',
    ],
    ['chat.update', { channel: 'U0PERSON1', ts: '1.2', text: 'x' }, 'channel_not_found'],
    ['chat.update', { channel: 'D0PERSON1', text: 'x' }, 'invalid_arguments'],
    ['conversations.join', { channel: 'D0PERSON1' }, 'channel_not_found'],
  ])('answers %s %j as Slack documents: %s', async (method, args, error) => {
    expect((await call(new FakeSlack(), method, args)).body).toEqual({ ok: false, error });
  });

  it('refuses a view whose blocks Slack does not accept with invalid_arguments', async () => {
    const slack = new FakeSlack();
    slack.refuseNewBlocks = true;
    const view = JSON.stringify({ type: 'home', blocks: [{ type: 'data_table' }] });
    const answer = await call(slack, 'views.publish', { user_id: 'U1', view });
    expect(answer.body.error).toBe('invalid_arguments');
  });

  it('answers 429 past a method’s tier, with the Retry-After that frees the next call', async () => {
    const slack = new FakeSlack();
    let now = 1_800_000_000_000;
    slack.clock = () => now;
    slack.enforceTiers = true;
    const start = { channel: 'D1', thread_ts: '1.2' };
    for (let i = 0; i < 20; i += 1) {
      expect((await call(slack, 'chat.startStream', start)).status).toBe(200);
      now += 1_000;
    }
    const limited = await call(slack, 'chat.startStream', start);
    expect(limited).toMatchObject({ status: 429, retryAfter: '40' });
    now += 40_000;
    expect((await call(slack, 'chat.startStream', start)).status).toBe(200);
  });
});
