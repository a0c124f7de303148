import { describe, expect, it } from 'vitest';
import { StoreHealth } from '../../src/digests/store-health.ts';
import { DigestStoreUnavailableError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { textSink } from '../helpers/text-sink.ts';

function health(ping: () => Promise<void>, options: { waitMs?: number } = {}) {
  const sink = textSink();
  let ms = 10_000;
  const checker = new StoreHealth({
    ping,
    logger: createLogger({ level: 'info', destination: sink.stream }),
    now: () => ms,
    ...options,
  });
  return { checker, sink, advance: (by: number) => (ms += by) };
}

describe('StoreHealth', () => {
  it('says why the store does not answer, and that it answers again, logging each change once', async () => {
    let failing = true;
    const { checker, sink, advance } = health(async () => {
      if (failing) throw new DigestStoreUnavailableError('connection refused');
    });
    expect(await checker.check()).toEqual({ ok: false, reason: 'connection refused' });
    advance(1_000);
    expect(await checker.check()).toEqual({ ok: false, reason: 'connection refused' });
    failing = false;
    advance(1_000);
    expect(await checker.check()).toEqual({ ok: true });
    expect(sink.text().match(/the digest store does not answer/g)).toHaveLength(1);
    expect(sink.text().match(/the digest store answers again/g)).toHaveLength(1);
  });

  it('pings once for many callers and reuses the answer for a second', async () => {
    let pings = 0;
    const { checker, advance } = health(async () => {
      pings++;
    });
    await Promise.all(Array.from({ length: 20 }, () => checker.check()));
    advance(999);
    await checker.check();
    expect(pings).toBe(1);
    advance(1);
    await checker.check();
    expect(pings).toBe(2);
  });

  it('answers within its wait when the ping never settles', async () => {
    const { checker } = health(() => new Promise<void>(() => undefined), { waitMs: 20 });
    expect(await checker.check()).toEqual({ ok: false, reason: 'no answer within 20 ms' });
  });

  it('hides an unexpected failure behind plain words', async () => {
    const { checker, sink } = health(async () => {
      throw new Error('relation "digests" does not exist at postgres://u:secret@h/db');
    });
    expect(await checker.check()).toEqual({
      ok: false,
      reason: 'the store failed a health check',
    });
    expect(sink.text()).toContain('the digest store failed a health check');
  });
});
