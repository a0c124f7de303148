/**
 * What one request to `/mcp` may start: tool calls take one of a few slots, the next wait their
 * turn, and past the waiting room a call is told the server is busy, while handshakes never wait.
 * The tools' work is held by the test (a `run` that ends only when told), so which call runs and
 * which waits is seen without any clock.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { LookupFlow } from '../../src/flows/lookup/index.ts';
import { silentLogger } from '../../src/logger.ts';
import { mcpEndpoint } from '../../src/mcp/endpoint.ts';
import { ToolSlots } from '../../src/mcp/tool-slots.ts';
import type { McpToolsDeps } from '../../src/mcp/tools.ts';

const bearerToken = 'mcp-limits-bearer-token-0123456789abcdef';

/** Tool work that starts when the SDK reaches it and ends when the test says. */
class HeldWork {
  readonly #ends: (() => void)[] = [];
  readonly #waiters: { count: number; resolve: () => void }[] = [];
  /** Tool calls started so far, ended or not. */
  started = 0;

  /**
   * Resolves once `count` tool calls have started; rejects when one of `answers` comes first (the
   * endpoint failed before the work), so a broken endpoint fails the test instead of hanging it.
   */
  startedCount(count: number, answers: readonly Promise<Response>[] = []): Promise<void> {
    if (this.started >= count) return Promise.resolve();
    const started = new Promise<void>((resolve) => this.#waiters.push({ count, resolve }));
    const early = answers.map((answer) =>
      answer.then(async (response) => {
        throw new Error(`answered ${response.status} before its work: ${await response.text()}`);
      }),
    );
    return Promise.race([started, ...early]);
  }

  /** Ends the oldest call still running. */
  endOne(): void {
    this.#ends.shift()?.();
  }

  readonly run: McpToolsDeps['run'] = <T>() =>
    new Promise<T>((resolve) => {
      this.#ends.push(() => resolve({ ok: false, error: 'ended by the test' } as T));
      this.started += 1;
      for (const waiter of this.#waiters.filter((w) => w.count <= this.started)) {
        waiter.resolve();
      }
    });
}

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function start(
  slots: ToolSlots,
  work: HeldWork,
  turns?: { next(): Promise<void> },
): Promise<string> {
  const tools: McpToolsDeps = {
    flow: {} as LookupFlow,
    logger: silentLogger,
    version: '0.0.0',
    zoneOf: async () => ({ zone: 'UTC', fallback: false }),
    admits: () => true,
    run: work.run,
  };
  const listener = mcpEndpoint({
    next: (_req, res) => res.writeHead(404).end(),
    bearerToken,
    firstSignature: async () => true,
    tools,
    logger: silentLogger,
    toolSlots: slots,
    ...(turns === undefined ? {} : { turns }),
  });
  const listening = createServer(listener);
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`;
}

function post(url: string, message: object): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${bearerToken}`,
    },
    body: JSON.stringify(message),
  });
}

const toolCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'top_influencers', arguments: { databases: '#hcsm' } },
});

/**
 * Resolves once `slots` has `count` calls waiting, looking again after each loop turn (no clock);
 * rejects when `answer`, the call expected to wait, is answered first.
 */
async function waitingCount(
  slots: ToolSlots,
  count: number,
  answer: Promise<Response>,
): Promise<void> {
  let answered: Response | undefined;
  void answer.then((response) => {
    answered = response;
  });
  while (slots.waiting < count) {
    if (answered !== undefined) throw new Error(`answered ${answered.status} instead of waiting`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('/mcp tool calls under their own concurrency limit', () => {
  it('runs N tool calls at once; the N+1th waits for one of them to end, then runs', async () => {
    const slots = new ToolSlots({ running: 2, waiting: 5 });
    const work = new HeldWork();
    const url = await start(slots, work);
    const first = post(url, toolCall(1));
    const second = post(url, toolCall(2));
    await work.startedCount(2, [first, second]);
    const third = post(url, toolCall(3));
    await waitingCount(slots, 1, third);
    expect(work.started).toBe(2);
    // A handshake takes no slot: it is answered while the tool calls hold them all.
    const listed = await post(url, { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} });
    expect(listed.status).toBe(200);
    expect(work.started).toBe(2);
    work.endOne();
    expect((await first).status).toBe(200);
    await work.startedCount(3);
    expect(slots.waiting).toBe(0);
    work.endOne();
    work.endOne();
    expect((await second).status).toBe(200);
    expect((await third).status).toBe(200);
    expect(slots.running).toBe(0);
  });

  it('tells a tool call past the waiting room that the server is busy, with 503 and Retry-After', async () => {
    const slots = new ToolSlots({ running: 1, waiting: 1 });
    const work = new HeldWork();
    const url = await start(slots, work);
    const running = post(url, toolCall(1));
    await work.startedCount(1, [running]);
    const waiting = post(url, toolCall(2));
    await waitingCount(slots, 1, waiting);
    const refused = await post(url, toolCall(3));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({
      error: {
        code: -32000,
        message:
          'Server busy: too many tool calls are running or waiting; try again in a few seconds.',
      },
    });
    work.endOne();
    await work.startedCount(2);
    work.endOne();
    expect((await running).status).toBe(200);
    expect((await waiting).status).toBe(200);
  });
});

describe('/mcp requests among the app’s other work', () => {
  it('starts an MCP request only at its turn of the event loop, so acks get in between', async () => {
    let asked: () => void = () => {};
    const askedForTurn = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let grant: () => void = () => {};
    const turn = new Promise<void>((resolve) => {
      grant = resolve;
    });
    const turns = {
      next: () => {
        asked();
        return turn;
      },
    };
    const work = new HeldWork();
    const url = await start(new ToolSlots({ running: 4, waiting: 4 }), work, turns);
    const answer = post(url, toolCall(1));
    await askedForTurn;
    expect(work.started).toBe(0);
    grant();
    await work.startedCount(1, [answer]);
    work.endOne();
    expect((await answer).status).toBe(200);
  });
});
