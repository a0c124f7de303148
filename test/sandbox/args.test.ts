import { describe, expect, it } from 'vitest';
import { parseSandboxArgs, sandboxBanner, shellQuote } from '../../src/sandbox/args.ts';

describe('parseSandboxArgs', () => {
  it('defaults to port 8787 on loopback with the demo credentials', () => {
    expect(parseSandboxArgs([], {})).toEqual({
      port: 8787,
      host: '127.0.0.1',
      latencyMs: 0,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      help: false,
    });
  });

  it('reads the flags, both spellings, and the credentials from the environment', () => {
    expect(
      parseSandboxArgs(['--port', '9000', '--host=0.0.0.0', '--latency', '150'], {
        SANDBOX_CLIENT_ID: 'acme',
        SANDBOX_CLIENT_SECRET: 'hunter2',
      }),
    ).toEqual({
      port: 9000,
      host: '0.0.0.0',
      latencyMs: 150,
      clientId: 'acme',
      clientSecret: 'hunter2',
      help: false,
    });
    expect(parseSandboxArgs(['--port', '0', '-h'], {})).toMatchObject({ port: 0, help: true });
  });

  it.each([
    [['--port', 'abc'], {}, '--port: expected an integer from 0 to 65535, got "abc"'],
    [['--port', '70000'], {}, '--port: expected an integer from 0 to 65535, got "70000"'],
    [['--latency=-5'], {}, '--latency: expected an integer from 0 to 600000, got "-5"'],
    [['--host', ''], {}, '--host: must not be empty'],
    [[], { SANDBOX_CLIENT_ID: '' }, 'SANDBOX_CLIENT_ID: must not be empty when set'],
    [
      [],
      { SANDBOX_CLIENT_ID: 'a:b' },
      'SANDBOX_CLIENT_ID: must not contain ":" (HTTP Basic separator)',
    ],
    [[], { SANDBOX_CLIENT_SECRET: '' }, 'SANDBOX_CLIENT_SECRET: must not be empty when set'],
  ])('refuses %j %j', (argv, env, problem) => {
    expect(() => parseSandboxArgs(argv, env)).toThrow(`Invalid configuration:\n  - ${problem}`);
  });

  it('lists every problem at once', () => {
    expect(() => parseSandboxArgs(['--port', 'x', '--latency', 'y'], {})).toThrow(
      'Invalid configuration:\n  - --port: expected an integer from 0 to 65535, got "x"\n  - --latency: expected an integer from 0 to 600000, got "y"',
    );
  });

  it('refuses unknown options and positionals with the usage', () => {
    expect(() => parseSandboxArgs(['--verbose'], {})).toThrow("Unknown option '--verbose'");
    expect(() => parseSandboxArgs(['8787'], {})).toThrow('Usage: npm run sandbox');
  });
});

describe('shellQuote', () => {
  it.each([
    ['demo-client:demo-secret', 'demo-client:demo-secret'],
    ['it has spaces', "'it has spaces'"],
    ["it's", "'it'\\''s'"],
    ['$HOME', "'$HOME'"],
  ])('quotes %j as %s', (value, quoted) => {
    expect(shellQuote(value)).toBe(quoted);
  });
});

describe('sandboxBanner', () => {
  it('prints the URL, the credentials and ready-to-paste curl commands', () => {
    const banner = sandboxBanner('http://127.0.0.1:8787', {
      port: 8787,
      host: '127.0.0.1',
      latencyMs: 0,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      help: false,
    });
    expect(banner).toContain('Analytics sandbox listening on http://127.0.0.1:8787');
    expect(banner).toContain(
      'curl -s -u demo-client:demo-secret -d grant_type=client_credentials http://127.0.0.1:8787/v1/oauth/token',
    );
    expect(banner).toContain(
      "'http://127.0.0.1:8787/v1/twitter/analytics/people/influencers?databases=%23hcsm&start=7%20days%20ago&end=now&timezone=UTC'",
    );
  });
});
