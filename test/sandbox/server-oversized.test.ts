import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { influencersPath } from '../../src/sandbox/server.ts';
import { influencers, query, sandboxPerTest, type WireBody } from './support.ts';

const window = { databases: '#hcsm', start: '2026-03-01', end: '2026-03-08', limit: '10' };

describe('sandbox answers larger than any honest one', () => {
  const ready = sandboxPerTest();

  it('answers ignores-limit with the ranking first, then made-up accounts up to the count', async () => {
    const { sandbox, token } = await ready();
    const honest = (await (await influencers(sandbox.url, token, window)).json()) as WireBody;
    sandbox.script({ kind: 'ignores-limit', items: 3_000 });
    const response = await influencers(sandbox.url, token, window);
    const text = await response.text();
    const body = JSON.parse(text) as WireBody;

    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    expect(body.influencers).toHaveLength(3_000);
    expect(body.influencers.slice(0, 10)).toEqual(honest.influencers);
    expect(body.influencers.map((item) => item.symplurrank)).toEqual(
      Array.from({ length: 3_000 }, (_, index) => index + 1),
    );
    expect(new Set(body.influencers.map((item) => item.user.screen_name)).size).toBe(3_000);
    const last = body.influencers.at(-1);
    expect(Object.keys(last ?? {})).toEqual(Object.keys(honest.influencers[0] ?? {}));
    expect(last).toMatchObject({
      mentions: 0,
      user: { screen_name: expect.stringMatching(/_2999$/) },
    });
    const { influencers: _honestItems, ...envelope } = honest;
    const { influencers: _items, ...echoed } = body;
    expect(echoed).toEqual(envelope);
    expect(sandbox.log.at(-1)?.bodyBytesWritten).toBe(Buffer.byteLength(text));
    expect((await influencers(sandbox.url, token, window)).headers.get('content-length')).not.toBe(
      null,
    );
  });

  it('declares the length of an ignores-limit answer when asked to', async () => {
    const { sandbox, token } = await ready();
    sandbox.script({ kind: 'ignores-limit', items: 1_000, declareLength: true });
    const response = await influencers(sandbox.url, token, window);
    const bytes = Buffer.byteLength(await response.text());
    expect(Number(response.headers.get('content-length'))).toBe(bytes);
  });

  it('checks the token before answering ignores-limit', async () => {
    const { sandbox } = await ready();
    sandbox.script({ kind: 'ignores-limit', items: 1_000 });
    const response = await influencers(sandbox.url, 'not-a-token', window);
    expect(response.status).toBe(401);
    expect(sandbox.log.at(-1)?.bodyBytesWritten).toBeUndefined();
  });

  it('writes no faster than the client reads and stops when it hangs up', async () => {
    const { sandbox, token } = await ready();
    sandbox.script({ kind: 'ignores-limit', items: 200_000 });
    const url = new URL(`${sandbox.url}${influencersPath}?${query(window)}`);
    const received = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes >= 1024 * 1024) {
            req.destroy();
            resolve(bytes);
          }
        });
      });
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
      req.end();
    });
    await sandbox.close();
    const written = sandbox.log.at(-1)?.bodyBytesWritten ?? 0;
    expect(written).toBeGreaterThanOrEqual(received);
    // The whole answer is about 74 MB; what was written is the read part and the socket buffers.
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  it('answers long-error-page with an HTML page of the size asked for', async () => {
    const { sandbox, token } = await ready();
    sandbox.script({ kind: 'long-error-page', status: 502, bytes: 300_000 });
    const response = await influencers(sandbox.url, token, window);
    const text = await response.text();
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(text).toContain('<title>502 Bad Gateway</title>');
    expect(text.endsWith('</html>\r\n')).toBe(true);
    expect(Buffer.byteLength(text)).toBe(300_000);
  });
});
