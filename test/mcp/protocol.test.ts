/**
 * `/mcp` on the wire, request by request: which sites and names it answers (DNS rebinding
 * protection), protocol 2026-07-28 beside 2025-11-25, the capabilities and schemas it
 * advertises, and the words of its refusals.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { now } from '../helpers/lookups.ts';

const bearerToken = 'mcp-protocol-bearer-token-0123456789abcdef';
const publicUrl = 'https://influencers.example.com';
const modern = '2026-07-28';

let sandbox: Sandbox;
let h: Harness;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    now,
    clients: [{ ...demoClient, access: ['#hcsm'] }],
  });
  h = await startHarness({
    sharedSandbox: sandbox,
    env: { MCP_BEARER_TOKEN: bearerToken, PUBLIC_URL: publicUrl, RESPONSE_CACHE_TTL_MS: '0' },
    overrides: { now },
  });
});

afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

const asBearer = { authorization: `Bearer ${bearerToken}` };

/** A raw POST to `/mcp` over node:http, which sends Host as given (fetch would replace it). */
function post(
  body: unknown,
  headers: Record<string, string> = asBearer,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${h.url}/mcp`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      async (res) => {
        let text = '';
        for await (const chunk of res) text += chunk;
        const data = text.startsWith('event:') ? text.split('\ndata: ')[1]?.split('\n')[0] : text;
        let json: Record<string, unknown> = {};
        try {
          json = data === undefined || data === '' ? {} : JSON.parse(data);
        } catch {
          json = {};
        }
        resolve({ status: res.statusCode ?? 0, json });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'protocol-test', version: '1.0.0' },
  },
};

/** A 2026-07-28 request: the protocol version and capabilities travel in every request's `_meta`. */
function modernRequest(method: string, params: Record<string, unknown> = {}) {
  return {
    jsonrpc: '2.0',
    id: 2,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': modern,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'protocol-test', version: '1.0.0' },
      },
    },
  };
}

function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    ...asBearer,
    'mcp-protocol-version': modern,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

/** Every `type` in a JSON Schema, wherever it stands. */
function typesIn(schema: unknown): unknown[] {
  if (Array.isArray(schema)) return schema.flatMap(typesIn);
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    key === 'type'
      ? [value]
      : key === 'properties' || key === '$defs'
        ? Object.values(value as object).flatMap(typesIn)
        : typesIn(value),
  );
}

describe('/mcp against DNS rebinding', () => {
  it.each([
    ['a page of another site', { origin: 'http://evil.example.com' }],
    ['a page claiming the app’s name over http', { origin: 'http://influencers.example.com' }],
    ['an opaque origin', { origin: 'null' }],
    ['a request addressed to another name', { host: 'evil.example.com' }],
  ])('answers 403 with the reason to %s', async (_case, headers) => {
    const { status, json } = await post(initialize, { ...asBearer, ...headers });
    expect(status).toBe(403);
    expect((json.error as { message?: string } | undefined)?.message).toMatch(/^Forbidden: /);
  });

  it.each([
    ['a program (no Origin)', {}],
    ['the app’s own pages', { origin: publicUrl, host: 'influencers.example.com' }],
    ['Slack’s pages', { origin: 'https://app.slack.com' }],
    ['a workspace’s pages on Slack', { origin: 'https://acme.enterprise.slack.com' }],
    ['localhost', { origin: 'http://localhost:6274', host: 'localhost:3000' }],
  ])('serves %s', async (_case, headers) => {
    const { status, json } = await post(initialize, { ...asBearer, ...headers });
    expect(status).toBe(200);
    expect(json.result).toBeDefined();
  });
});

describe('/mcp at protocol 2026-07-28', () => {
  it('answers server/discover with the versions it speaks, 2025-11-25 among them', async () => {
    const { status, json } = await post(
      modernRequest('server/discover'),
      modernHeaders('server/discover'),
    );
    expect(status).toBe(200);
    const result = json.result as { supportedVersions: string[]; capabilities: object };
    expect(result.supportedVersions).toContain(modern);
    expect(result.capabilities).toHaveProperty('tools');
  });

  it('lists and calls the tools statelessly, with no initialize first', async () => {
    const listed = await post(modernRequest('tools/list'), modernHeaders('tools/list'));
    expect(listed.status).toBe(200);
    const tools = (listed.json.result as { tools: { name: string }[] }).tools;
    expect(tools.map((tool) => tool.name).sort()).toEqual(['read_window', 'top_influencers']);
    const called = await post(
      modernRequest('tools/call', { name: 'read_window', arguments: { text: 'last week' } }),
      modernHeaders('tools/call', 'read_window'),
    );
    expect(called.status).toBe(200);
    expect(called.json.result).toMatchObject({
      structuredContent: { window: { start: '2026-11-09T00:00:00+00:00', zone: 'UTC' } },
    });
  });

  it('still serves a 2025-11-25 client its handshake', async () => {
    const { status, json } = await post(initialize);
    expect(status).toBe(200);
    expect((json.result as { protocolVersion: string }).protocolVersion).toBe('2025-11-25');
  });
});

describe('what /mcp advertises', () => {
  it('offers tools without promising list_changed notifications it never sends', async () => {
    const { json } = await post(initialize);
    const capabilities = (json.result as { capabilities: { tools: object } }).capabilities;
    expect(capabilities.tools).not.toMatchObject({ listChanged: true });
  });

  it('describes every input and output in JSON Schema 2020-12, one type each', async () => {
    const { json } = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} });
    const tools = (json.result as { tools: { inputSchema: object; outputSchema: object }[] }).tools;
    expect(tools).toHaveLength(2);
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema' });
        const types = typesIn(schema);
        expect(types.length).toBeGreaterThan(0);
        for (const type of types) expect(typeof type).toBe('string');
      }
    }
  });
});

describe('the words of /mcp’s refusals', () => {
  it.each([
    ['an object', '{"hello":"world"}'],
    ['a list of numbers', '[1, 2]'],
    ['a string', '"tools/list"'],
    ['a message of another JSON-RPC version', '{"jsonrpc":"1.0","id":1,"method":"ping"}'],
  ])('answers JSON that is not JSON-RPC (%s) with -32600 Invalid Request', async (_case, body) => {
    const { status, json } = await post(body);
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: -32600 });
  });

  it('refuses a batch with 400 and -32600 in words, running none of its calls', async () => {
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'top_influencers', arguments: { databases: '#hcsm', window: 'export' } },
    });
    const before = sandbox.log.length;
    const { status, json } = await post([call(1), call(2)]);
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      code: -32600,
      message:
        'Invalid Request: the body is a batch of 2 JSON-RPC messages, which this server does not take (MCP removed batching in 2025-06-18); send each message in a request of its own.',
    });
    expect(sandbox.log.length).toBe(before);
  });

  it('refuses an empty array with 400 and -32600 in words, not a silent 202', async () => {
    const { status, json } = await post('[]');
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      code: -32600,
      message:
        'Invalid Request: the body is an empty array; send one JSON-RPC message per request.',
    });
  });

  it.each([
    [
      'a string',
      '{"databases":"#hcsm"}',
      'Invalid params: "arguments" must be an object of the tool\'s inputs, such as {"databases": "#hcsm"}; it was a string (send the JSON object itself, not text holding it).',
    ],
    [
      'an array',
      ['#hcsm'],
      'Invalid params: "arguments" must be an object of the tool\'s inputs, such as {"databases": "#hcsm"}; it was an array.',
    ],
  ])(
    'answers a tool call whose arguments are %s with -32602 naming the field, no schema dump',
    async (_case, args, words) => {
      const { status, json } = await post({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'top_influencers', arguments: args },
      });
      expect(status).toBe(200);
      expect(json).toMatchObject({ id: 9, error: { code: -32602, message: words } });
    },
  );

  it('answers a tool call without a tool name with -32602 in words', async () => {
    const { json } = await post({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: {} });
    expect(json).toMatchObject({
      id: 10,
      error: {
        code: -32602,
        message:
          'Invalid params: "name" must be the name of a tool as tools/list gives it, such as "top_influencers"; it was missing.',
      },
    });
  });

  it('still answers a body that is not JSON with -32700', async () => {
    const { status, json } = await post('{not json');
    expect(json.error).toMatchObject({ code: -32700 });
    expect(status).toBe(400);
  });

  it.each([
    ['no credentials', {}, /send the header "Authorization: Bearer <token>"/],
    ['another scheme', { authorization: 'Basic eDp5' }, /must read "Bearer <token>"/],
    ['a wrong token', { authorization: 'Bearer wrong-token' }, /does not match/],
  ])('says in a 401 what is missing: %s', async (_case, headers, words) => {
    const { status, json } = await post(initialize, headers);
    expect(status).toBe(401);
    expect((json.error as { message?: string } | undefined)?.message).toMatch(words);
  });
});
