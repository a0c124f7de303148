import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.ts';
import { influencers, requestToken } from './support.ts';

describe('sandbox request log', () => {
  it('records every request in order without credentials or tokens', async () => {
    const clock = new Date('2026-03-10T15:20:30Z');
    const sandbox = await startSandbox({ now: () => clock });
    try {
      const token = await requestToken(sandbox.url);
      await influencers(
        sandbox.url,
        token,
        'databases=%23hcsm,breast%20cancer&start=3%20days%20ago&end=now',
      );
      await fetch(`${sandbox.url}/v1/unknown?client_secret=demo-secret&x=1`);
      expect(sandbox.log).toEqual([
        {
          at: clock,
          method: 'POST',
          path: '/v1/oauth/token',
          endpoint: 'token',
          query: {},
          rawQuery: '',
          authScheme: 'basic',
          authSchemeSent: 'Basic',
          status: 200,
        },
        {
          at: clock,
          method: 'GET',
          path: '/v1/twitter/analytics/people/influencers',
          endpoint: 'data',
          query: { databases: '#hcsm,breast cancer', start: '3 days ago', end: 'now' },
          rawQuery: 'databases=%23hcsm,breast%20cancer&start=3%20days%20ago&end=now',
          authScheme: 'bearer',
          authSchemeSent: 'Bearer',
          status: 200,
        },
        {
          at: clock,
          method: 'GET',
          path: '/v1/unknown',
          endpoint: 'other',
          query: { client_secret: '[redacted]', x: '1' },
          rawQuery: 'client_secret=[redacted]&x=1',
          authScheme: 'none',
          authSchemeSent: undefined,
          status: 404,
        },
      ]);
      const serialised = JSON.stringify(sandbox.log);
      expect(serialised).not.toContain(token);
      expect(serialised).not.toContain('demo-secret');
      sandbox.clearLog();
      expect(sandbox.log).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
