import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startingGate } from '../../src/http/starting.ts';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(ready: () => boolean, stopping?: () => boolean): Promise<string> {
  const created = createServer(
    startingGate({
      next: (_req, res) => {
        res.writeHead(200);
        res.end('app');
      },
      ready,
      ...(stopping === undefined ? {} : { stopping }),
      about: { version: '1.2.3', mode: 'http' },
    }),
  );
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(created.address() as AddressInfo).port}`;
}

describe('startingGate', () => {
  it('says starting on /healthz and refuses everything else with 503 until ready', async () => {
    const url = await serve(() => false);

    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'starting', version: '1.2.3', mode: 'http' });

    const event = await fetch(`${url}/slack/events`, { method: 'POST', body: 'x'.repeat(10_000) });
    expect(event.status).toBe(503);
    expect(event.headers.get('retry-after')).toBe('1');
    expect(await event.text()).toBe('');
  });

  it('hands every request to the app once ready', async () => {
    let ready = false;
    const url = await serve(() => ready);
    expect((await fetch(`${url}/slack/events`, { method: 'POST' })).status).toBe(503);

    ready = true;

    const event = await fetch(`${url}/slack/events`, { method: 'POST' });
    expect(event.status).toBe(200);
    expect(await event.text()).toBe('app');
    expect(await (await fetch(`${url}/healthz`)).text()).toBe('app');
  });

  it('says stopping on /healthz and refuses new work with 503 while the app drains', async () => {
    let stopping = false;
    const url = await serve(
      () => true,
      () => stopping,
    );
    expect((await fetch(`${url}/slack/events`, { method: 'POST', body: 'x' })).status).toBe(200);

    stopping = true;
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'stopping', version: '1.2.3', mode: 'http' });
    const event = await fetch(`${url}/slack/events`, { method: 'POST', body: 'x' });
    expect(event.status).toBe(503);
    expect(event.headers.get('retry-after')).toBe('1');
  });
});
