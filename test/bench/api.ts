/**
 * Analytics client benchmark: what the single-flight token, the in-flight sharing and the client's
 * own overhead cost or save, each against a baseline measured in the same run on the in-process
 * sandbox over loopback.
 */
import { Agent, request } from 'undici';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import { influencersRequestPath } from '../../src/analytics/query.ts';
import type { InfluencersQuery } from '../../src/analytics/types.ts';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';

const concurrentLookups = 1_000;
const warmUpCalls = 300;
const rounds = 10;
const callsPerRound = 200;
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

function newClient(sandbox: Sandbox, responseCacheTtlMs: number): AnalyticsClient {
  return new AnalyticsClient({
    baseUrl: sandbox.url,
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

async function fetchToken(sandbox: Sandbox, agent: Agent): Promise<string> {
  const response = await request(`${sandbox.url}/v1/oauth/token`, {
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

async function overhead(sandbox: Sandbox): Promise<{ clientMs: number; rawMs: number }> {
  const client = newClient(sandbox, 0);
  const agent = new Agent(agentOptions);
  const token = await fetchToken(sandbox, agent);
  const query = weekQuery();
  const url = `${sandbox.url}${influencersRequestPath(query)}`;
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
  for (let round = 0; round < rounds; round += 1) {
    // Alternate which side goes first so drift within a round favours neither.
    if (round % 2 === 0) {
      clientTotal += await timePerCall(callsPerRound, viaClient);
      rawTotal += await timePerCall(callsPerRound, raw);
    } else {
      rawTotal += await timePerCall(callsPerRound, raw);
      clientTotal += await timePerCall(callsPerRound, viaClient);
    }
  }
  await client.close();
  await agent.close();
  const calls = rounds * callsPerRound;
  return { clientMs: clientTotal / calls, rawMs: rawTotal / calls };
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
    const { clientMs, rawMs } = await overhead(sandbox);
    const calls = rounds * callsPerRound;
    console.log(
      line(
        `client, mean per call (${calls} sequential, no cache)`,
        `${(clientMs * 1000).toFixed(0)} µs`,
        'see ratio',
      ),
    );
    console.log(
      line(
        `raw undici request(), mean per call (${calls})`,
        `${(rawMs * 1000).toFixed(0)} µs`,
        'baseline',
      ),
    );
    console.log(line('client / raw', `${(clientMs / rawMs).toFixed(2)}x`, `<= ${overheadTarget}x`));
  } finally {
    await sandbox.close();
  }
}
