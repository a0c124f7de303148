import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.ts';
import { boltLogger, webApiLogger } from '../../../src/slack/process/bolt-logger.ts';

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

  it('prints every URL in a message without its user and password', () => {
    const lines: string[] = [];
    const logger = boltLogger(
      createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(line) } }),
    );
    logger.debug('http request url: https://proxy:pa55word@slack.example/api/chat.postMessage');
    logger.warn('http request failed', 'fetch to https://u:p@slack.example/api/ failed');
    expect(lines.join('\n')).not.toMatch(/pa55word|u:p@/);
    expect((JSON.parse(lines[0] ?? '{}') as { msg: string }).msg).toBe(
      'http request url: https://slack.example/api/chat.postMessage',
    );
  });
});

describe('webApiLogger', () => {
  it('names the Web API client and says nothing below info, whatever the app logs', () => {
    const lines: string[] = [];
    const logger = webApiLogger(
      createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(line) } }),
    );
    logger.debug('http request body: {"text":"#hcsm last week"}');
    logger.warn('http request failed', 'fetch to https://u:p@slack.example/api/ failed');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        level: 40,
        component: 'web-api',
        msg: 'http request failed fetch to https://slack.example/api/ failed',
      }),
    ]);
  });

  it('never writes two component keys when the app logger names its component already', () => {
    const lines: string[] = [];
    const app = createLogger({
      level: 'info',
      destination: { write: (line: string) => lines.push(line) },
    });
    webApiLogger(app.child({ component: 'startup' })).warn('http request failed fetch failed');
    boltLogger(app.child({ component: 'http' })).warn('an event nobody listens to');
    expect(lines.map((line) => line.match(/"component":/g)?.length)).toEqual([1, 1]);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ component: 'startup', library: 'web-api' }),
      expect.objectContaining({ component: 'http', library: 'bolt' }),
    ]);
  });

  it('keeps a stricter level of the app', () => {
    const lines: string[] = [];
    const logger = webApiLogger(
      createLogger({ level: 'error', destination: { write: (line: string) => lines.push(line) } }),
    );
    logger.warn('http request failed');
    expect(lines).toEqual([]);
  });
});
