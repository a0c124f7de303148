import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.ts';
import { boltLogger } from '../../../src/slack/support/bolt-logger.ts';

describe('boltLogger', () => {
  it('writes Bolt records through pino with Slack tokens scrubbed from message strings', () => {
    const lines: string[] = [];
    const logger = boltLogger(
      createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(line) } }),
    );
    logger.info('http request url: x', { token: 'xoxb-123-abc' }, 'xapp-1-A-2');
    logger.error(new Error('failed'), 'while posting');
    const records = lines.map(
      (line) => JSON.parse(line) as { msg: string; component: string; err?: { message: string } },
    );
    expect(records[0]).toMatchObject({
      msg: 'http request url: x {"token":"[redacted]"} [redacted]',
      component: 'bolt',
    });
    expect(records[1]).toMatchObject({ msg: 'while posting', err: { message: 'failed' } });
  });
});
