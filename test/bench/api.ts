/**
 * Analytics client benchmark: what the single-flight token, the in-flight sharing and the client's
 * own overhead cost or save, each against a baseline measured in the same run over loopback. The
 * overhead is measured twice: against the sandbox (whose data generation dominates each call) and
 * against a minimal server answering a fixed small body, where the client's own cost shows.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import { influencersRequestPath } from '../../src/analytics/query.ts';
import type { InfluencersQuery } from '../../src/analytics/types.ts';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';

const concurrentLookups = 1_000;
const warmUpCalls = 300;
const rounds = 20;
const callsPerRound = 100;
const overheadTarget = 1.2;
const agentOptions = {
  connectTimeout: 10_000,
  headersTimeout: 300_000,
  bodyTimeout: 300_000,
  connections: 32,
} as const;

function weekQuery(offsetSeconds = 0): InfluencersQuery {
  const endMs = Date.parse('2026-03-18T09:00:00Z') + offsetSeconds * 1000;
  return {
    databases: ['#hcsm'],
    start: new Date(endMs - 7 * 86_400_000).toISOString().replace('.000Z', 'Z'),
    end: new Date(endMs).toISOString().replace('.000Z', 'Z'),
  };
}

/** What the minimal server answers on the data path: a real influencer, small and fixed. */
const fixedBody = JSON.stringify({
  influencers: [
    {
      symplurrank: 1,
      mentions: 42,
      tweets: 7,
      user: { screen_name: 'fixed_doctor', display_name: 'Dr Fixed', hsg_score: 61.5 },
    },
  ],
});

/** A node:http server that validates nothing: a token on the token path, `fixedBody` elsewhere. */
async function startMinimalServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const token = JSON.stringify({ access_token: 'fixed-token', expires_in: 3600 });
  const server: Server = createServer((req, res) => {
    req.resume();
    const body = req.url === '/v1/oauth/token' ? token : fixedBody;
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function newClient(target: { url: string }, responseCacheTtlMs: number): AnalyticsClient {
  return new AnalyticsClient({
    baseUrl: target.url,
    clientId: demoClient.id,
    clientSecret: demoClient.secret,
    responseCacheTtlMs,
  });
}

function line(label: string, value: string, target: string): string {
  return `  ${label.padEnd(52)} ${value.padStart(12)}   target ${target}`;
}

async function tokenRequestsOnColdCache(sandbox: Sandbox): Promise<number> {
  const client = newClient(sandbox, 0);
  await Promise.all(
    Array.from({ length: concurrentLookups }, (_, index) =>
      client.getInfluencers(weekQuery(index)),
    ),
  );
  const { tokenRequests } = client.stats;
  await client.close();
  return tokenRequests;
}

async function httpCallsForIdenticalLookups(sandbox: Sandbox): Promise<number> {
  const client = newClient(sandbox, 60_000);
  const query = weekQuery();
  await Promise.all(Array.from({ length: concurrentLookups }, () => client.getInfluencers(query)));
  const { httpRequests } = client.stats;
  await client.close();
  return httpRequests;
}

async function fetchToken(target: { url: string }, agent: Agent): Promise<string> {
  const response = await request(`${target.url}/v1/oauth/token`, {
    dispatcher: agent,
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${demoClient.id}:${demoClient.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const body = (await response.body.json()) as { access_token: string };
  return body.access_token;
}

async function timePerCall(calls: number, call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < calls; index += 1) await call();
  return performance.now() - started;
}

interface Overhead {
  readonly clientMs: number;
  readonly rawMs: number;
  /** The median of the rounds' client / raw ratios. */
  readonly ratio: number;
}

/**
 * Client and raw undici calls to the same target, interleaved in rounds: mean ms per call, and the
 * median of each round's ratio, which a burst of the machine's other work in one round cannot
 * move as it moves the means.
 */
async function overhead(target: { url: string }): Promise<Overhead> {
  const client = newClient(target, 0);
  const agent = new Agent(agentOptions);
  const token = await fetchToken(target, agent);
  const query = weekQuery();
  const url = `${target.url}${influencersRequestPath(query)}`;
  const viaClient = () => client.getInfluencers(query);
  const raw = async () => {
    const response = await request(url, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      headersTimeout: agentOptions.headersTimeout,
      bodyTimeout: agentOptions.bodyTimeout,
    });
    if (response.statusCode !== 200) throw new Error(`raw request got HTTP ${response.statusCode}`);
    return response.body.json();
  };
  await timePerCall(warmUpCalls, viaClient);
  await timePerCall(warmUpCalls, raw);
  let clientTotal = 0;
  let rawTotal = 0;
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    // Alternate which side goes first so drift within a round favours neither.
    let clientMs: number;
    let rawMs: number;
    if (round % 2 === 0) {
      clientMs = await timePerCall(callsPerRound, viaClient);
      rawMs = await timePerCall(callsPerRound, raw);
    } else {
      rawMs = await timePerCall(callsPerRound, raw);
      clientMs = await timePerCall(callsPerRound, viaClient);
    }
    clientTotal += clientMs;
    rawTotal += rawMs;
    ratios.push(clientMs / rawMs);
  }
  await client.close();
  await agent.close();
  const calls = rounds * callsPerRound;
  const sorted = ratios.sort((a, b) => a - b);
  const ratio = ((sorted[(rounds - 1) >> 1] ?? 0) + (sorted[rounds >> 1] ?? 0)) / 2;
  return { clientMs: clientTotal / calls, rawMs: rawTotal / calls, ratio };
}

export async function run(): Promise<void> {
  const sandbox = await startSandbox();
  try {
    const tokenRequests = await tokenRequestsOnColdCache(sandbox);
    console.log(
      line(
        `token requests, ${concurrentLookups} concurrent lookups (cold)`,
        String(tokenRequests),
        '1',
      ),
    );
    const httpCalls = await httpCallsForIdenticalLookups(sandbox);
    console.log(
      line(`HTTP calls, ${concurrentLookups} identical concurrent lookups`, String(httpCalls), '1'),
    );
    printOverhead('sandbox', await overhead(sandbox));
    const minimal = await startMinimalServer();
    try {
      printOverhead('minimal server', await overhead(minimal));
    } finally {
      await minimal.close();
    }
  } finally {
    await sandbox.close();
  }
}

function printOverhead(target: string, { clientMs, rawMs, ratio }: Overhead) {
  const calls = rounds * callsPerRound;
  console.log(
    line(
      `${target}: client, mean per call (${calls} calls)`,
      `${(clientMs * 1000).toFixed(0)} µs`,
      'see ratio',
    ),
  );
  console.log(
    line(
      `${target}: raw undici request(), mean per call`,
      `${(rawMs * 1000).toFixed(0)} µs`,
      'baseline',
    ),
  );
  console.log(
    line(
      `${target}: client / raw, of the means`,
      `${(clientMs / rawMs).toFixed(2)}x`,
      'see median',
    ),
  );
  console.log(
    line(
      `${target}: client / raw, median of ${rounds} rounds`,
      `${ratio.toFixed(2)}x`,
      `<= ${overheadTarget}x`,
    ),
  );
}
