/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) against `/mcp`, for
 * the scenarios the server claims: the 2025-11-25 handshake, ping and tools/list, DNS rebinding
 * protection, and the stateless 2026-07-28 revision (`server/discover`, the per-request
 * envelope). The suite runs as its own CLI against the app started here on an ephemeral port;
 * the suite cannot send a bearer token, so a loopback proxy adds it to every request and passes
 * everything else (Host, Origin) through as sent.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { now } from '../helpers/lookups.ts';

const bearerToken = 'mcp-conformance-bearer-token-0123456789abcdef';
const cli = new URL(
  '../../node_modules/@modelcontextprotocol/conformance/dist/index.js',
  import.meta.url,
).pathname;
/** The checks this server cannot run (the suite's own diagnostic tools), each named. */
const baseline = new URL('./conformance-baseline.yml', import.meta.url).pathname;

/** Each scenario at the protocol revision it is run under. */
const scenarios: readonly (readonly [scenario: string, revision: string])[] = [
  ['server-initialize', '2025-11-25'],
  ['ping', '2025-11-25'],
  ['tools-list', '2025-11-25'],
  ['dns-rebinding-protection', '2025-11-25'],
  ['server-stateless', '2026-07-28'],
  ['tools-list', '2026-07-28'],
  ['dns-rebinding-protection', '2026-07-28'],
  ['http-header-validation', '2026-07-28'],
];

let sandbox: Sandbox;
let h: Harness;
let proxy: Server;
let proxyUrl: string;
let results: string;

/** A loopback proxy to `target` that adds the bearer token to every request. */
function bearerProxy(target: string): Server {
  const { hostname, port } = new URL(target);
  return createServer((req, res) => {
    const forwarded = request(
      {
        hostname,
        port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, authorization: `Bearer ${bearerToken}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    now,
    clients: [{ ...demoClient, access: ['#hcsm'] }],
  });
  h = await startHarness({
    sharedSandbox: sandbox,
    env: { MCP_BEARER_TOKEN: bearerToken, PUBLIC_URL: 'https://influencers.example.com' },
    overrides: { now },
  });
  proxy = bearerProxy(h.url);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
  results = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await h?.close();
  await sandbox?.close();
  if (results !== undefined) await rm(results, { recursive: true, force: true });
});

/**
 * A run takes 2 to 4 s (mostly the suite's own start); the test's clock starts while it waits for
 * its turn behind the others, so the budget covers the whole queue on a busy machine.
 */
const scenarioBudgetMs = 120_000;

/** Runs of the suite waiting for one of the two turns; this machine has two cores. */
const waiting: (() => void)[] = [];
let running = 0;

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** The suite's CLI for one scenario: its exit code and what it printed. */
function conformance(scenario: string, revision: string): Promise<{ code: number; out: string }> {
  const args = [cli, 'server', '--url', proxyUrl, '--scenario', scenario];
  args.push('--spec-version', revision, '--timeout', '15000', '-o', join(results, revision));
  args.push('--expected-failures', baseline);
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

describe('the MCP conformance suite', () => {
  // Each run is a process of its own, mostly waiting on the app: two at a time halve the wait.
  it.concurrent.each(scenarios)(
    'passes %s at %s',
    async (scenario, revision) => {
      const { code, out } = await inTurn(() => conformance(scenario, revision));
      expect(code, out).toBe(0);
      expect(out).toMatch(/Passed: \d+\/\d+/);
    },
    scenarioBudgetMs,
  );
});
