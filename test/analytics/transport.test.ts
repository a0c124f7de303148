import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import { TimeoutError } from '../../src/errors.ts';
import { FakeClock, type Harness, lastWeek, rejectionOf, startHarness } from './helpers.ts';

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("AnalyticsClient's own Agent", () => {
  it('keeps connections alive: 20 sequential calls and a token exchange share at most 2', async () => {
    harness = await startHarness({ responseCacheTtlMs: 0 });
    const { client, clock, sandbox } = harness;
    for (let index = 0; index < 20; index += 1) await client.getInfluencers(lastWeek(clock));
    expect(sandbox.log).toHaveLength(21);
    // undici frees a connection one turn of the event loop after its answer ends, so a call made
    // at once after another may take a second idle connection of the pool; never a new one each time.
    expect(sandbox.connections).toBeGreaterThanOrEqual(1);
    expect(sandbox.connections).toBeLessThanOrEqual(2);
  });

  it('opens no further connection for sequential calls spaced out like real traffic', async () => {
    harness = await startHarness({ responseCacheTtlMs: 0 });
    const { client, clock, sandbox } = harness;
    await client.getInfluencers(lastWeek(clock));
    const afterFirstCall = sandbox.connections;
    for (let index = 0; index < 8; index += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await client.getInfluencers(lastWeek(clock));
    }
    expect(sandbox.log).toHaveLength(10);
    expect(sandbox.connections).toBe(afterFirstCall);
  });
});

/**
 * A loopback listener whose accept queue is full: it listens with a backlog of 1 on a worker thread
 * whose event loop is then blocked, so nothing is ever accepted; `fillers` take the queue's places.
 * A further connection stays in the TCP handshake, as with an unreachable host, without leaving
 * the machine.
 */
async function unacceptingListener(): Promise<{ port: number; close: () => Promise<void> }> {
  const release = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const server = require('node:net').createServer();
    server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
      parentPort.postMessage(server.address().port);
      Atomics.wait(workerData, 0, 0);
      server.close();
    });
    `,
    { eval: true, workerData: release },
  );
  const [port] = (await once(worker, 'message')) as [number];
  const fillers: Socket[] = [];
  for (;;) {
    const socket = connect(port, '127.0.0.1');
    fillers.push(socket);
    const connected = await Promise.race([
      once(socket, 'connect').then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 200)),
    ]);
    if (!connected) break;
    if (fillers.length > 16) throw new Error('the accept queue never filled up');
  }
  return {
    port,
    async close() {
      Atomics.store(release, 0, 1);
      Atomics.notify(release, 0);
      for (const socket of fillers) socket.destroy();
      await worker.terminate();
    },
  };
}

describe('AnalyticsClient connect timeout', () => {
  it('maps a loopback handshake that never completes to TimeoutError(connect) after connectTimeoutMs, through its own Agent', async () => {
    const listener = await unacceptingListener();
    const client = new AnalyticsClient({
      baseUrl: `http://127.0.0.1:${listener.port}`,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      connectTimeoutMs: 300,
      maxAttempts: 2,
      sleep: async () => {},
    });
    try {
      const started = performance.now();
      const error = await rejectionOf(client.getInfluencers(lastWeek(new FakeClock())));
      const elapsedMs = performance.now() - started;
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.message).toBe('The analytics request timed out (connect, after 300 ms)');
      expect((error.cause as { code?: string }).code).toBe('UND_ERR_CONNECT_TIMEOUT');
      expect(elapsedMs).toBeGreaterThanOrEqual(550);
      expect(elapsedMs).toBeLessThan(3_000);
    } finally {
      await client.close();
      await listener.close();
    }
  }, 8_000);
});

/**
 * A service that answers token requests and holds every data request unanswered, telling the test
 * when one arrives and when its connection closes.
 */
async function holdingService(): Promise<{
  url: string;
  arrived: () => Promise<void>;
  closed: () => Promise<void>;
  dataRequests: () => number;
  release: () => void;
  close: () => Promise<void>;
}> {
  const held: ServerResponse[] = [];
  const arrivals: Array<() => void> = [];
  const closes: Array<() => void> = [];
  let dataRequests = 0;
  const server = createServer((req, res) => {
    req.resume();
    if (req.url === '/v1/oauth/token') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'held-token', expires_in: 3600 }));
      return;
    }
    dataRequests += 1;
    held.push(res);
    res.on('close', () => closes.shift()?.());
    arrivals.shift()?.();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived: () => new Promise((resolve) => arrivals.push(resolve)),
    closed: () => new Promise((resolve) => closes.push(resolve)),
    dataRequests: () => dataRequests,
    release: () => {
      for (const res of held.splice(0)) {
        if (res.destroyed) continue;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ influencers: [{ user: { screen_name: 'late' } }] }));
      }
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

describe('AnalyticsClient requests nobody waits for', () => {
  it('drops the connection of a request once its only caller gave up', async () => {
    const service = await holdingService();
    const client = new AnalyticsClient({
      baseUrl: service.url,
      clientId: 'id',
      clientSecret: 'secret',
    });
    try {
      const caller = new AbortController();
      const arrived = service.arrived();
      const closed = service.closed();
      const call = rejectionOf(
        client.getInfluencers(lastWeek(new FakeClock()), { signal: caller.signal }),
      );
      await arrived;
      caller.abort();
      expect(await call).toMatchObject({ phase: 'deadline' });
      await closed;
    } finally {
      await client.close();
      await service.close();
    }
  });

  it('never sends a request given up while it waited for a connection', async () => {
    const service = await holdingService();
    const client = new AnalyticsClient({
      baseUrl: service.url,
      clientId: 'id',
      clientSecret: 'secret',
      maxConnectionsPerOrigin: 1,
      responseCacheTtlMs: 0,
    });
    try {
      const clock = new FakeClock();
      const arrived = service.arrived();
      const first = client.getInfluencers(lastWeek(clock));
      await arrived;
      const caller = new AbortController();
      clock.advance(1_000);
      const queued = rejectionOf(client.getInfluencers(lastWeek(clock), { signal: caller.signal }));
      caller.abort();
      expect(await queued).toMatchObject({ phase: 'deadline' });
      service.release();
      expect((await first).influencers).toEqual([
        { rank: 1, screenName: 'late', stakeholderCategories: [], metrics: {} },
      ]);
      // The connection is free again: a third call is sent, and the queued one never was.
      const third = service.arrived();
      const answered = client.getInfluencers(lastWeek(clock), { deadlineMs: 5_000 });
      await third;
      service.release();
      await answered;
      expect(service.dataRequests()).toBe(2);
    } finally {
      await client.close();
      await service.close();
    }
  });
});
