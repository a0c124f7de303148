import { describe, expect, it, vi } from 'vitest';
import {
  ConfigError,
  DigestStoreOpenFailedError,
  SlackTokenRejectedError,
  SlackUnreachableError,
} from '../../../src/errors.ts';
import { createLogger, silentLogger } from '../../../src/logger.ts';
import { startFailureText } from '../../../src/render/startup.ts';
import { networkReason, startFailure, verifyBotToken } from '../../../src/slack/process/startup.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';

const token = 'xoxb-startup-test-token';

/** A clock that only moves when the code under test sleeps. */
function fakeTime() {
  let now = 1_700_000_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

/**
 * Per-request timeouts on a clock of the test's: the Web API client times a call out with
 * `AbortSignal.timeout`, whose signals fire here once `advance` has moved past them.
 */
function fakeTimeouts() {
  let elapsed = 0;
  const timers: { readonly at: number; readonly controller: AbortController }[] = [];
  const spy = vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
    const controller = new AbortController();
    timers.push({ at: elapsed + ms, controller });
    return controller.signal;
  });
  return {
    advance(ms: number): void {
      elapsed += ms;
      for (const { at, controller } of timers) {
        if (at <= elapsed && !controller.signal.aborted) {
          controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
        }
      }
    },
    /** `fetch` that rejects, as the real one does, when the call's signal fired before its answer. */
    abortable(fetchFn: typeof fetch): typeof fetch {
      return async (input, init) => {
        const response = await fetchFn(input, init);
        init?.signal?.throwIfAborted();
        return response;
      };
    },
    restore: () => spy.mockRestore(),
  };
}

describe('verifyBotToken', () => {
  it('tries again with backoff while Slack answers 5xx, then returns the bot ids', async () => {
    const slack = new FakeSlack();
    slack.failHttp('auth.test', 503, 3);
    const time = fakeTime();
    const identity = await verifyBotToken({
      token,
      fetch: slack.fetch,
      logger: silentLogger,
      ...time,
    });
    expect(identity).toEqual({ botId: 'B0BOT0001', botUserId: 'U0BOT0001' });
    expect(time.sleeps).toEqual([1_000, 2_000, 4_000]);
    expect(slack.api('auth.test')).toHaveLength(4);
  });

  it('waits out an auth.test slower than the interactive client timeout', async () => {
    const slack = new FakeSlack();
    const timeouts = fakeTimeouts();
    slack.override('auth.test', async () => {
      timeouts.advance(5_500);
      return { ok: true, user_id: 'U0BOT0001', bot_id: 'B0BOT0001' };
    });
    try {
      const identity = await verifyBotToken({
        token,
        fetch: timeouts.abortable(slack.fetch),
        logger: silentLogger,
        ...fakeTime(),
      });
      expect(identity.botId).toBe('B0BOT0001');
      expect(slack.api('auth.test')).toHaveLength(1);
    } finally {
      timeouts.restore();
    }
  });

  it.each(['invalid_auth', 'token_revoked'])(
    'gives up at once when Slack answers %s',
    async (error) => {
      const slack = new FakeSlack();
      slack.override('auth.test', () => ({ ok: false, error }));
      const time = fakeTime();
      const failure = verifyBotToken({ token, fetch: slack.fetch, logger: silentLogger, ...time });
      await expect(failure).rejects.toBeInstanceOf(SlackTokenRejectedError);
      expect(time.sleeps).toEqual([]);
    },
  );

  it('gives up once the next wait would pass the start-up budget', async () => {
    const slack = new FakeSlack();
    slack.failHttp('auth.test', 500);
    const time = fakeTime();
    const failure = verifyBotToken({
      token,
      fetch: slack.fetch,
      logger: silentLogger,
      budgetMs: 45_000,
      ...time,
    });
    await expect(failure).rejects.toBeInstanceOf(SlackUnreachableError);
    expect(time.sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000]);
  });

  it('stops trying once the start failed elsewhere', async () => {
    const slack = new FakeSlack();
    slack.failHttp('auth.test', 500);
    const time = fakeTime();
    const givenUp = new AbortController();
    const failure = verifyBotToken({
      token,
      fetch: slack.fetch,
      logger: silentLogger,
      ...time,
      sleep: async (ms) => {
        time.sleeps.push(ms);
        givenUp.abort(new Error('the database could not be opened'));
      },
      signal: givenUp.signal,
    });
    await expect(failure).rejects.toThrow('the database could not be opened');
    expect(slack.api('auth.test')).toHaveLength(1);
  });

  it('logs the URL it called and what the network said', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'warn',
      destination: { write: (line: string) => lines.push(line) },
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3999'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 3999,
    });
    const fetchRefused = (async () => {
      throw new TypeError('fetch failed', { cause: refused });
    }) as typeof fetch;
    const time = fakeTime();
    await expect(
      verifyBotToken({
        token,
        fetch: fetchRefused,
        apiUrl: 'http://127.0.0.1:3999/api/',
        logger,
        budgetMs: 2_000,
        ...time,
      }),
    ).rejects.toBeInstanceOf(SlackUnreachableError);
    const retry = lines.map((line) => JSON.parse(line)).find((record) => record.attempt === 1);
    expect(retry).toMatchObject({
      url: 'http://127.0.0.1:3999/api/auth.test',
      reason: 'ECONNREFUSED 127.0.0.1:3999',
    });
  });
});

describe('networkReason', () => {
  it.each([
    [
      'a refused connection',
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('x'), {
          code: 'ECONNREFUSED',
          address: '10.0.0.1',
          port: 443,
        }),
      }),
      'ECONNREFUSED 10.0.0.1:443',
    ],
    [
      'an unknown host',
      {
        original: new TypeError('fetch failed', {
          cause: Object.assign(new Error('x'), { code: 'ENOTFOUND', hostname: 'slack.example' }),
        }),
      },
      'ENOTFOUND slack.example',
    ],
    [
      'a port fetch refuses to call',
      { original: new TypeError('fetch failed', { cause: new Error('bad port') }) },
      'bad port',
    ],
    ['nothing more than fetch failed', new TypeError('fetch failed'), undefined],
  ])('says what the network said for %s', (_what, error, reason) => {
    expect(networkReason(error)).toBe(reason);
  });
});

describe('startFailure and its sentence', () => {
  const listenError = (code: string) => Object.assign(new Error(code), { code, syscall: 'listen' });

  it.each([
    [
      'a token Slack refuses',
      new SlackTokenRejectedError('invalid_auth'),
      'Cannot start: Slack refused the bot token (invalid_auth): reinstall the app from manifest.yml or update SLACK_BOT_TOKEN.',
    ],
    [
      'a Slack that never confirmed the token',
      new SlackUnreachableError(
        44_000,
        Object.assign(new Error('http'), { code: 'slack_webapi_http_error', statusCode: 503 }),
      ),
      'Cannot start: Slack did not confirm SLACK_BOT_TOKEN within 44 s (last answer: HTTP 503); check that this machine reaches Slack (and SLACK_API_URL, if set), then start again.',
    ],
    [
      'a port in use',
      listenError('EADDRINUSE'),
      'Cannot start: port 3000 is already in use: stop what listens there, or set PORT to a free port.',
    ],
    [
      'a privileged port',
      listenError('EACCES'),
      'Cannot start: this process may not listen on port 3000: set PORT to a port above 1023.',
    ],
    [
      'a database that refuses connections',
      new DigestStoreOpenFailedError(
        'PostgreSQL db.example.com:5432/app',
        Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      ),
      'Cannot start: the digest store (PostgreSQL db.example.com:5432/app) could not be opened (ECONNREFUSED): check DATABASE_URL, or unset it to keep digests in SQLite at DIGESTS_SQLITE_PATH.',
    ],
    [
      'an App-Level Token Slack refuses',
      Object.assign(new Error('refused'), {
        code: 'slack_webapi_platform_error',
        data: { ok: false, error: 'invalid_auth' },
      }),
      'Cannot start: Slack refused SLACK_APP_TOKEN (invalid_auth): create an App-Level Token with the connections:write scope under Basic Information > App-Level Tokens and put it in SLACK_APP_TOKEN.',
    ],
  ])('says what to change after %s, in one line', (_name, error, text) => {
    expect(startFailureText(startFailure(error, 3000))).toBe(text);
  });

  it('lists several configuration problems, one per line', () => {
    const text = startFailureText(
      startFailure(new ConfigError(['A is wrong.', 'B is wrong.']), 3000),
    );
    expect(text).toBe(
      'Cannot start: 2 configuration problems.\n  - A is wrong.\n  - B is wrong.\nEvery variable is described in .env.example.',
    );
  });
});
