/**
 * The MCP server at `/mcp` over real HTTP, driven by the official SDK's own client: initialize,
 * tools/list, both tools with good and bad inputs, the bearer token, Slack identity auth (requests
 * signed as Slack signs them, naming the person in `_meta.slack`) and every refusal, which comes
 * before any work.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamNotAllowedError } from '../../src/errors.ts';
import { renderMade } from '../../src/flows/lookup/answer.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { errorText } from '../../src/render/errors.ts';
import { toolRefusals, toolText } from '../../src/render/lookups/mcp-tools.ts';
import { rankingOf } from '../../src/render/lookups/ranking.ts';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { type Harness, signingSecret, startHarness } from '../helpers/harness.ts';
import { fixedNow, now, rankings, request, userZone } from '../helpers/lookups.ts';
import { otherTeamId, teamId, userId } from '../helpers/payloads.ts';
import { signSlackRequest } from '../helpers/signing.ts';

const bearerToken = 'mcp-test-bearer-token-0123456789abcdef';

let sandbox: Sandbox;
/** Bearer token and Slack identity auth on; only {@link teamId} is allowed. */
let h: Harness;
/** Neither way in configured. */
let closed: Harness;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    now,
    clients: [{ ...demoClient, access: ['#hcsm', '#bcsm', '#quiet'] }],
  });
  const env = { RESPONSE_CACHE_TTL_MS: '0', LOOKUP_TIMEOUT_MS: '10000' };
  h = await startHarness({
    sharedSandbox: sandbox,
    env: {
      ...env,
      MCP_BEARER_TOKEN: bearerToken,
      MCP_SLACK_IDENTITY_AUTH: 'true',
      SLACK_ALLOWED_TEAM_IDS: teamId,
    },
    overrides: { now },
  });
  closed = await startHarness({ sharedSandbox: sandbox, env, overrides: { now } });
});

afterAll(async () => {
  await h?.close();
  await closed?.close();
  await sandbox?.close();
});

/** An SDK client connected to `/mcp` with these headers, or through this fetch. */
async function connect(
  url: string,
  options: { headers?: Record<string, string>; fetch?: typeof fetch } = {},
): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: options.headers ?? {} },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  await client.connect(transport);
  return client;
}

/** A fetch that signs each body as Slack signs requests to an app, at `timestamp` when given. */
function slackFetch(secret = signingSecret, timestamp?: number): typeof fetch {
  return async (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(signSlackRequest(secret, body, timestamp))) {
      headers.set(name, value);
    }
    return fetch(input, { ...init, headers });
  };
}

const asBearer = { headers: { authorization: `Bearer ${bearerToken}` } };
const slackMeta = { slack: { user_id: userId, team_id: teamId } };

function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<CallToolResult> {
  return client.callTool({
    name,
    arguments: args,
    ...(meta === undefined ? {} : { _meta: meta }),
  }) as Promise<CallToolResult>;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** A raw JSON-RPC POST, for what the SDK client would not send. */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
}

const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

describe('/mcp with a bearer token', () => {
  it('initializes and lists both tools, each input described for a model', async () => {
    const client = await connect(h.url, asBearer);
    expect(client.getServerVersion()?.name).toBe('hcsm-influencers');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['read_window', 'top_influencers']);
    const top = tools.find((tool) => tool.name === 'top_influencers');
    expect(Object.keys(top?.inputSchema.properties ?? {}).sort()).toEqual(
      ['compare', 'databases', 'metric', 'stakeholders', 'top', 'window', 'zone'].sort(),
    );
    for (const property of Object.values(top?.inputSchema.properties ?? {})) {
      expect((property as { description?: string }).description).toMatch(/Example/);
    }
    expect(top?.outputSchema).toBeDefined();
    await client.close();
  });

  it('ranks as the DM answer does: structured rows and the answer as text, in UTC', async () => {
    const client = await connect(h.url, asBearer);
    const result = await call(client, 'top_influencers', {
      databases: '#hcsm',
      window: 'last week',
      top: 5,
      metric: 'impressions',
    });
    const asked = request('#hcsm last week top 5 by impressions', 'UTC');
    const { current } = await rankings(h, asked);
    const expectedRows = rankingOf(current, 'impressions', 5).rows;
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as Record<string, unknown>;
    expect(content.window).toEqual({
      start: '2026-11-09T00:00:00+00:00',
      end: '2026-11-16T00:00:00+00:00',
      zone: 'UTC',
      wholeDays: true,
      words: 'Nov 9 – Nov 15, whole days, UTC',
    });
    expect(content.metric).toBe('impressions');
    expect(content.databases).toEqual(['#hcsm']);
    expect(content.comparison).toBeUndefined();
    expect(content.rows).toEqual(
      expectedRows.map((row) => ({
        rank: row.rank,
        name: row.name,
        handle: row.handle,
        metrics: row.influencer.metrics,
        categories: row.categories,
        ...(row.influencer.followersCount === undefined
          ? {}
          : { followers: row.influencer.followersCount }),
      })),
    );
    const answer = renderMade(
      asked,
      { kind: 'ranking', rankings: { current } },
      { actions: false },
    );
    expect(textOf(result)).toBe(toolText(answer));
    expect(textOf(result).length).toBeLessThanOrEqual(12_000);
    await client.close();
  });

  it('compares when asked: every row has its previous rank, and who dropped out is listed', async () => {
    const client = await connect(h.url, asBearer);
    const result = await call(client, 'top_influencers', {
      databases: ['#hcsm', '#bcsm'],
      window: 'last week',
      compare: 'previous period',
    });
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as {
      rows: { previousRank?: number | null }[];
      comparison: { window: { start: string; end: string }; droppedOut: unknown[] };
      databases: string[];
    };
    expect(content.databases).toEqual(['#hcsm', '#bcsm']);
    expect(content.comparison.window).toMatchObject({
      start: '2026-11-02T00:00:00+00:00',
      end: '2026-11-09T00:00:00+00:00',
    });
    expect(content.rows.length).toBeGreaterThan(0);
    for (const row of content.rows) expect(row).toHaveProperty('previousRank');
    await client.close();
  });

  it('gives bad inputs back as tool errors in the parser’s own words, asking nothing of the service', async () => {
    const client = await connect(h.url, asBearer);
    const before = sandbox.log.length;
    const misspelt = await call(client, 'top_influencers', {
      databases: '#hcsm',
      window: 'last weekk',
    });
    const parsed = parseLookup('#hcsm last weekk', {
      now: fixedNow,
      zone: 'UTC',
      conversation: true,
    });
    expect(misspelt.isError).toBe(true);
    expect(textOf(misspelt)).toBe((parsed as Error).message);
    const tooMany = await call(client, 'top_influencers', { databases: '#hcsm', top: 900 });
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toMatch(/900/);
    const trend = await call(client, 'top_influencers', { databases: '#hcsm', window: 'weekly' });
    expect(textOf(trend)).toBe(toolRefusals.trend);
    const missing = await call(client, 'top_influencers', { window: 'last week' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/databases/);
    const badZone = await call(client, 'read_window', { text: 'last week', zone: 'Mars/Base' });
    expect(badZone.isError).toBe(true);
    expect(textOf(badZone)).toMatch(/^Unknown time zone “Mars\/Base”/);
    expect(sandbox.log.length).toBe(before);
    await client.close();
  });

  it('reads a window as top_influencers would, with a whole day across the end of summer time (DST) 25 hours long', async () => {
    const client = await connect(h.url, asBearer);
    const result = await call(client, 'read_window', { text: 'Oct 25', zone: 'Europe/London' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      window: {
        start: '2026-10-25T00:00:00+01:00',
        end: '2026-10-26T00:00:00+00:00',
        zone: 'Europe/London',
        wholeDays: true,
        words: 'Oct 25, whole day, GMT+1',
      },
    });
    const exact = await call(client, 'read_window', {
      text: 'yesterday 9am to 5pm vs previous period',
    });
    expect(exact.structuredContent).toMatchObject({
      window: {
        start: '2026-11-20T09:00:00+00:00',
        end: '2026-11-20T17:00:00+00:00',
        zone: 'UTC',
        wholeDays: false,
      },
      compare: { start: '2026-11-20T01:00:00+00:00', end: '2026-11-20T09:00:00+00:00' },
    });
    expect(textOf(exact)).toContain('from 2026-11-20T09:00:00+00:00 to 2026-11-20T17:00:00+00:00');
    await client.close();
  });

  it('refuses a wrong token, another scheme or none with 401 before any work, and never logs the token', async () => {
    const before = sandbox.log.length;
    for (const headers of [
      { authorization: 'Bearer not-the-token-0123456789abcdef0123' },
      { authorization: `Basic ${Buffer.from(`x:${bearerToken}`).toString('base64')}` },
      {},
    ]) {
      const response = await post(h.url, toolsList, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
    await expect(connect(h.url, { headers: { authorization: 'Bearer wrong' } })).rejects.toThrow();
    expect(sandbox.log.length).toBe(before);
    expect(h.logs.join('\n')).not.toContain(bearerToken);
  });

  it('answers 405 to anything but POST, and 413 to a body past the cap', async () => {
    const get = await fetch(`${h.url}/mcp`, {
      headers: { authorization: `Bearer ${bearerToken}` },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const huge = await post(h.url, 'x'.repeat(70 * 1024), asBearer.headers);
    expect(huge.status).toBe(413);
  });
});

describe('/mcp with Slack identity auth', () => {
  it('serves Slackbot’s signed requests, reading the window in the person’s Slack zone', async () => {
    const client = await connect(h.url, { fetch: slackFetch() });
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(2);
    const result = await call(
      client,
      'top_influencers',
      { databases: '#hcsm', window: 'yesterday' },
      slackMeta,
    );
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { window: unknown }).window).toMatchObject({
      start: '2026-11-20T00:00:00-05:00',
      end: '2026-11-21T00:00:00-05:00',
      zone: userZone,
      wholeDays: true,
    });
    expect(h.slack.calls.some((c) => c.method === 'users.info' && c.args.user === userId)).toBe(
      true,
    );
    await client.close();
  });

  it('refuses a person from a workspace outside the allow-list with the app’s words, and a request naming nobody', async () => {
    const client = await connect(h.url, { fetch: slackFetch() });
    const before = sandbox.log.length;
    const outside = await call(
      client,
      'top_influencers',
      { databases: '#hcsm' },
      { slack: { user_id: userId, team_id: otherTeamId } },
    );
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toBe(errorText(new TeamNotAllowedError(otherTeamId)));
    const nobody = await call(client, 'read_window', { text: 'last week' });
    expect(textOf(nobody)).toBe(toolRefusals.noIdentity);
    expect(sandbox.log.length).toBe(before);
    await client.close();
  });

  it('refuses with 401 a request signed with another secret, a stale one, and a replayed tool call', async () => {
    const wrong = await post(h.url, toolsList, signSlackRequest('another-secret', toolsList));
    expect(wrong.status).toBe(401);
    const stale = Math.floor(Date.now() / 1000) - 6 * 60;
    const old = await post(h.url, toolsList, signSlackRequest(signingSecret, toolsList, stale));
    expect(old.status).toBe(401);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'read_window', arguments: { text: 'last week' }, _meta: slackMeta },
    });
    const signed = signSlackRequest(signingSecret, body);
    expect((await post(h.url, body, signed)).status).toBe(200);
    expect((await post(h.url, body, signed)).status).toBe(401);
    // The handshake is the same for everyone: two identical ones in one second are both served.
    const handshake = signSlackRequest(signingSecret, toolsList);
    expect((await post(h.url, toolsList, handshake)).status).toBe(200);
    expect((await post(h.url, toolsList, handshake)).status).toBe(200);
    await expect(connect(h.url, { fetch: slackFetch('another-secret') })).rejects.toThrow();
  });
});

describe('/mcp with neither way in configured', () => {
  it('answers 404, signed or not', async () => {
    expect((await post(closed.url, toolsList, asBearer.headers)).status).toBe(404);
    expect(
      (await post(closed.url, toolsList, signSlackRequest(signingSecret, toolsList))).status,
    ).toBe(404);
  });
});
