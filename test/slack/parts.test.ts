import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../../src/logger.ts';
import { boltLogger } from '../../src/slack/support/bolt-logger.ts';
import { InFlight } from '../../src/slack/support/in-flight.ts';
import { SeenEvents } from '../../src/slack/support/seen-events.ts';
import {
  isAllowedRequest,
  requestEnterpriseId,
  requestTeamId,
} from '../../src/slack/support/team-guard.ts';
import { firstWord, typedText } from '../../src/slack/support/text.ts';
import {
  slackRetryAfterMs,
  webClientOptions,
  withRateLimitRetry,
} from '../../src/slack/web-api/client.ts';
import { ResponseUrl, responseUrlMaxUses } from '../../src/slack/web-api/response-url.ts';
import { UserZones } from '../../src/slack/web-api/user-zones.ts';
import { timedOut, within } from '../../src/time/within.ts';
import { FakeSlack } from '../helpers/fake-slack.ts';

describe('ResponseUrl', () => {
  it('posts at most five times and drops the sixth', async () => {
    const slack = new FakeSlack();
    const url = 'https://hooks.slack.test/commands/T1/1/abc';
    const channel = new ResponseUrl(url, slack.fetch, silentLogger);
    const sent = [];
    for (let i = 0; i < responseUrlMaxUses + 1; i += 1)
      sent.push(await channel.send({ text: `post ${i}`, replace_original: true }));
    expect(sent).toEqual([true, true, true, true, true, false]);
    expect(slack.responses(url)).toHaveLength(5);
    expect(channel.uses).toBe(5);
  });

  it('reports a refused post as not sent', async () => {
    const channel = new ResponseUrl(
      'https://x.test/r',
      async () => new Response('expired_url', { status: 404 }),
      silentLogger,
    );
    expect(await channel.send({ text: 'late' })).toBe(false);
  });
});

describe('UserZones', () => {
  const client = (slack: FakeSlack) =>
    ({
      users: {
        info: async (args: { user: string }) => {
          const response = await slack.fetch(`${slack.apiUrl}users.info`, {
            method: 'POST',
            body: `user=${args.user}`,
          });
          return (await response.json()) as { user?: { tz?: string } };
        },
      },
    }) as unknown as WebClient;

  it('reads the profile zone once and caches it', async () => {
    const slack = new FakeSlack({ zones: { U1: 'Asia/Tokyo' } });
    const zones = new UserZones({ logger: silentLogger, waitMs: 500 });
    expect(await zones.zoneOf(client(slack), 'U1')).toEqual({
      zone: 'Asia/Tokyo',
      fallback: false,
    });
    expect(await zones.zoneOf(client(slack), 'U1')).toEqual({
      zone: 'Asia/Tokyo',
      fallback: false,
    });
    expect(slack.api('users.info')).toHaveLength(1);
  });

  it('reads a profile zone as the parser does: old names canonical, abbreviations refused', async () => {
    const slack = new FakeSlack({ zones: { U5: 'Asia/Calcutta', U6: 'EST' } });
    const zones = new UserZones({ logger: silentLogger, waitMs: 500 });
    expect(await zones.zoneOf(client(slack), 'U5')).toEqual({
      zone: 'Asia/Kolkata',
      fallback: false,
    });
    expect(await zones.zoneOf(client(slack), 'U6')).toEqual({ zone: 'UTC', fallback: true });
  });

  it('falls back to UTC past the bounded wait and caches the late answer', async () => {
    const slack = new FakeSlack({ zones: { U2: 'Europe/Berlin' } });
    slack.usersInfoDelayMs = 200;
    const zones = new UserZones({ logger: silentLogger, waitMs: 20 });
    expect(await zones.zoneOf(client(slack), 'U2')).toEqual({ zone: 'UTC', fallback: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await zones.zoneOf(client(slack), 'U2')).toEqual({
      zone: 'Europe/Berlin',
      fallback: false,
    });
  });

  it('falls back to UTC when users.info fails or gives no zone', async () => {
    const slack = new FakeSlack();
    slack.override('users.info', () => ({ ok: false, error: 'user_not_found' }));
    const zones = new UserZones({ logger: silentLogger, waitMs: 500 });
    const failing = {
      users: {
        info: async () => {
          throw new Error('user_not_found');
        },
      },
    } as unknown as WebClient;
    expect(await zones.zoneOf(failing, 'U3')).toEqual({ zone: 'UTC', fallback: true });
    const noZone = {
      users: { info: async () => ({ ok: true, user: {} }) },
    } as unknown as WebClient;
    expect(await zones.zoneOf(noZone, 'U4')).toEqual({ zone: 'UTC', fallback: true });
  });
});

describe('typedText', () => {
  it.each([
    ['<@U0BOT0001> #hcsm yesterday', 'U0BOT0001', '#hcsm yesterday'],
    ['<@U0OTHER> #hcsm yesterday', undefined, '#hcsm yesterday'],
    ['  #hcsm &amp; more  ', undefined, '#hcsm &amp; more'],
    [undefined, undefined, ''],
  ])('reads %j', (text, bot, expected) => {
    expect(typedText(text, bot)).toBe(expected);
  });

  it('splits the first word', () => {
    expect(firstWord(' digest  #hcsm every monday ')).toEqual({
      word: 'digest',
      rest: '#hcsm every monday',
    });
    expect(firstWord('')).toEqual({ word: '', rest: '' });
  });
});

describe('requestTeamId', () => {
  it.each([
    [{ team_id: 'T1' }, 'T1'],
    [{ team: { id: 'T2' } }, 'T2'],
    [{ team: null, user: { team_id: 'T3' } }, 'T3'],
    [{}, undefined],
  ])('finds the workspace in %j', (body, expected) => {
    expect(requestTeamId(body)).toBe(expected);
  });
});

describe('requestEnterpriseId', () => {
  it.each([
    [{ enterprise_id: 'E1' }, 'E1'],
    [{ enterprise: { id: 'E2' } }, 'E2'],
    [{ team: { id: 'T1', enterprise_id: 'E3' } }, 'E3'],
    [{ authorizations: [{ enterprise_id: 'E4', team_id: 'T1' }] }, 'E4'],
    [{ enterprise_id: null, authorizations: [{ enterprise_id: null }] }, undefined],
  ])('finds the organization in %j', (body, expected) => {
    expect(requestEnterpriseId(body)).toBe(expected);
  });
});

describe('isAllowedRequest', () => {
  it.each([
    [[], 'T1', undefined, true],
    [['T1'], 'T1', undefined, true],
    [['T1'], 'T2', undefined, false],
    [['E1'], 'T2', 'E1', true],
    [['E1'], 'T2', 'E2', false],
    [['E1'], 'E1', undefined, true],
    [['T1'], undefined, undefined, false],
  ])('with %j admits team %s of organization %s: %s', (allowed, team, enterprise, expected) => {
    expect(isAllowedRequest(allowed, team, enterprise)).toBe(expected);
  });
});

describe('webClientOptions', () => {
  it('rejects rate-limited calls instead of pausing every call for Retry-After', () => {
    expect(webClientOptions({}).rejectRateLimitedCalls).toBe(true);
  });
});

describe('withRateLimitRetry', () => {
  const rateLimited = (retryAfter: number) =>
    Object.assign(new Error('rate limited'), {
      code: 'slack_webapi_rate_limited_error',
      retryAfter,
    });

  it('waits Retry-After, bounded, then tries once more', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withRateLimitRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw rateLimited(20);
        return 'posted';
      },
      { maxWaitMs: 3_000, sleep: async (ms) => void waits.push(ms) },
    );
    expect(result).toBe('posted');
    expect(waits).toEqual([3_000]);
  });

  it('throws a second 429 and never retries other errors', async () => {
    const sleep = async () => {};
    let calls = 0;
    await expect(
      withRateLimitRetry(
        async () => {
          calls += 1;
          throw rateLimited(1);
        },
        { sleep },
      ),
    ).rejects.toThrow('rate limited');
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      withRateLimitRetry(
        async () => {
          calls += 1;
          throw new Error('channel_not_found');
        },
        { sleep },
      ),
    ).rejects.toThrow('channel_not_found');
    expect(calls).toBe(1);
  });

  it('reads Retry-After only from the rate-limited error', () => {
    expect(slackRetryAfterMs(rateLimited(2))).toBe(2_000);
    expect(slackRetryAfterMs(new Error('x'))).toBeUndefined();
  });
});

describe('SeenEvents', () => {
  it('answers true only the first time an event id is seen', () => {
    const seen = new SeenEvents();
    expect([
      seen.firstTime('Ev1'),
      seen.firstTime('Ev1'),
      seen.firstTime('Ev2'),
      seen.firstTime(undefined),
    ]).toEqual([true, false, true, true]);
  });
});

describe('InFlight', () => {
  it('waits for work, then aborts what outlives the grace period', async () => {
    const inFlight = new InFlight();
    void inFlight.track(new Promise((resolve) => setTimeout(resolve, 20)));
    expect(await inFlight.drain(1_000, 100)).toBe(true);
    const stuck = inFlight.track(
      new Promise<void>((resolve) => inFlight.signal.addEventListener('abort', () => resolve())),
    );
    expect(await inFlight.drain(20, 1_000)).toBe(false);
    await stuck;
    expect(inFlight.size).toBe(0);
  });
});

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

describe('within', () => {
  it('gives the value of work that settles in time', async () => {
    expect(await within(Promise.resolve('done'), 1_000)).toBe('done');
  });

  it('gives timedOut when the time runs out first', async () => {
    expect(await within(new Promise(() => {}), 5)).toBe(timedOut);
  });

  it('throws the failure of work that fails in time', async () => {
    await expect(within(Promise.reject(new Error('boom')), 1_000)).rejects.toThrow('boom');
  });
});

describe('withRateLimitRetry beyond its longest wait', () => {
  const rateLimited = (retryAfter: number) =>
    Object.assign(new Error('rate limited'), {
      code: 'slack_webapi_rate_limited_error',
      retryAfter,
    });

  it('throws at once with give-up, and waits the default when Slack gives no Retry-After', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    let calls = 0;
    await expect(
      withRateLimitRetry(
        async () => {
          calls += 1;
          throw rateLimited(60);
        },
        { maxWaitMs: 30_000, beyondMax: 'give-up', sleep },
      ),
    ).rejects.toThrow('rate limited');
    expect(calls).toBe(1);
    const platformLimited = Object.assign(new Error('ratelimited'), {
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'ratelimited' },
    });
    calls = 0;
    const result = await withRateLimitRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw platformLimited;
        return 'posted';
      },
      { defaultWaitMs: 1_000, sleep },
    );
    expect(result).toBe('posted');
    expect(waits).toEqual([1_000]);
  });
});
