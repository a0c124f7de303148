import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
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
