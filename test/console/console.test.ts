import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { consoleZoneErrorText } from '../../src/render/console.ts';
import { errorText } from '../../src/render/errors.ts';
import { renderHelp } from '../../src/render/lookups/help.ts';
import { startUsageText } from '../../src/render/startup.ts';
import { toPlainText } from '../../src/render/text.ts';
import { parseCsv } from '../helpers/csv.ts';
import { startInProcess } from '../helpers/run-start.ts';
import { spawnApp } from '../helpers/spawn-app.ts';

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the console');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `npm start` with `input` on stdin, in-process; the smoke test spawns it. */
async function runConsole(
  input: string,
  args: string[] = [],
  env: Record<string, string> = {},
  cwd?: string,
) {
  const app = startInProcess(
    { TZ: 'Europe/Paris', ...env },
    args,
    cwd === undefined ? {} : { cwd },
  );
  app.stdin.end(input);
  const { code } = await app.exited;
  return { code, stdout: app.stdout(), stderr: app.stderr() };
}

/** `node src/main.ts` in a process of its own, with `input` piped to it. */
async function spawnConsole(input: string) {
  const app = spawnApp({ TZ: 'Europe/Paris' });
  app.child.stdin.end(input);
  const { code } = await app.exited;
  return { code, stdout: app.stdout(), stderr: app.stderr() };
}

describe('npm start without Slack credentials (the console)', () => {
  it('answers a piped slash command with the sandbox and exits 0 at the end of input', async () => {
    const { code, stdout } = await spawnConsole('/influencers #hcsm last week\n');
    expect(code).toBe(0);
    expect(stdout).toContain('built-in sandbox at http://127.0.0.1:');
    expect(stdout).toContain('To connect a real workspace:');
    expect(stdout).toMatch(/Looking up top influencers for #hcsm, .+ GMT\+1…/);
    expect(stdout).toContain('Top influencers for #hcsm');
    expect(stdout).toMatch(/\n1\. .+@\w+/);
  });

  it('writes an export under ./exports/ and prints its path', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'console-exports-'));
    try {
      const { code, stdout } = await runConsole(
        '/influencers #hcsm last week export\n',
        [],
        {},
        cwd,
      );
      expect(code).toBe(0);
      const path = /\[CSV export saved to (exports\/[^\]]+\.csv)\]/.exec(stdout)?.[1];
      expect(path).toBeDefined();
      const bytes = readFileSync(join(cwd, path ?? ''));
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows = parseCsv(bytes.toString('utf8'));
      expect(rows.length).toBeGreaterThan(11);
      expect(stdout.indexOf('Top influencers for #hcsm')).toBeLessThan(stdout.indexOf(path ?? ''));
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('numbers the readings of a question asked back, and asks the one whose number is typed', async () => {
    const { code, stdout } = await runConsole('#bcsm 3/11/2026 to 10/11/2026\n1\n');
    expect(code).toBe(0);
    expect(stdout).toContain('  1. Nov 3, 2026 to Nov 10, 2026: #bcsm 2026-11-03 to 2026-11-10');
    expect(stdout).toContain('  2. Mar 11, 2026 to Oct 11, 2026: #bcsm 2026-03-11 to 2026-10-11');
    expect(stdout.indexOf('Top influencers for #bcsm')).toBeGreaterThan(stdout.indexOf('  2. '));
  });

  it('answers DM-style text, help and a parse error, in order', async () => {
    const { code, stdout } = await runConsole(
      '#bcsm yesterday\nhelp\n/influencers last week\nexit\n#hcsm yesterday\n',
    );
    expect(code).toBe(0);
    const bcsm = stdout.indexOf('Top influencers for #bcsm');
    const help = stdout.indexOf(toPlainText(renderHelp({})));
    const parseError = parseLookup('last week', { now: new Date(), zone: 'Europe/Paris' });
    expect(parseError).toBeInstanceOf(ParseError);
    const error = stdout.indexOf(
      toPlainText({
        text: '',
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: `:warning: ${errorText(parseError)}` } },
        ],
      }),
    );
    expect(bcsm).toBeGreaterThan(0);
    expect(help).toBeGreaterThan(bcsm);
    expect(error).toBeGreaterThan(help);
    expect(stdout).not.toContain('Top influencers for #hcsm');
  });

  it('answers questions typed as in a DM, and alike after the slash command', async () => {
    const { code, stdout } = await runConsole(
      [
        'who drove #hcsm last week?',
        'top influencers for #bcsm yesterday',
        'show me "breast cancer" this month',
        'hello, who drove #bcsm last week?',
        '/influencers who drove #hcsm last week?',
      ].join('\n'),
    );
    expect(code).toBe(0);
    expect(stdout.match(/Top influencers for #hcsm/g)).toHaveLength(2);
    expect(stdout.match(/Top influencers for #bcsm/g)).toHaveLength(2);
    expect(stdout).toContain('Top influencers for "breast cancer"');
    expect(stdout).toMatch(/Looking up top influencers for #hcsm, .+ – .+, whole days, GMT\+1…/);
    expect(stdout).not.toContain('is not part of a lookup');
    expect(stdout).not.toContain('How to use');
  });

  it('reads a DM-style follow-up with the last question, as Slack’s DM does', async () => {
    const { code, stdout } = await runConsole(
      ['#bcsm last month by followers top 3', 'how about #hcsm?', 'and doctors only?'].join('\n'),
    );
    expect(code).toBe(0);
    const pending = stdout.match(/Looking up .+…/g) ?? [];
    expect(pending).toHaveLength(3);
    const [first, second, third] = pending;
    expect(second).toBe(first?.replace('#bcsm', '#hcsm'));
    expect(third).toBe(second);
    expect(stdout.match(/\n3\. .+@\w+/g)).toHaveLength(3);
    // Only the last answer keeps doctors alone, still by followers, three of them.
    expect(stdout.match(/Who: Doctors/g)).toHaveLength(1);
    expect(stdout.slice(stdout.lastIndexOf('Looking up'))).toMatch(/Who: Doctors/);
  });

  it('creates, lists, runs and removes a digest, "posting" it into the console', async () => {
    const { code, stdout } = await runConsole(
      [
        '/influencers digest #hcsm every monday at 9am top 3 in America/New_York',
        '/influencers digests',
        '/influencers digest #hcsm',
        '/influencers digest run ZZZZZZ',
        '/influencers digest run',
      ].join('\n'),
    );
    expect(code).toBe(0);
    const id = /Digest ([0-9A-Z]{6}) created/.exec(stdout)?.[1];
    expect(id).toBeDefined();
    expect(stdout).toContain('Schedule: Mondays at 09:00 America/New_York');
    expect(stdout).toMatch(/Next runs\n• Mon [A-Z][a-z]{2} \d+, 09:00 E[SD]T/);
    expect(stdout).toContain(`${id} · top 3 of #hcsm`);
    expect(stdout).toContain('“#hcsm” needs a schedule');
    expect(stdout).toContain('There is no digest with id “ZZZZZZ” here.');
    expect(stdout).toContain('“digest run” needs the id of a digest');
  });

  it('posts a digest on "run" with the same Block Kit answer, then removes it', async () => {
    const app = startInProcess({ TZ: 'Europe/Paris' });
    app.stdin.write('/influencers digest #bcsm every day at 8am top 2\n');
    const created = await waitFor(() => /Digest ([0-9A-Z]{6}) created/.exec(app.stdout())?.[1]);
    app.stdin.end(
      `/influencers digest run ${created}\n/influencers digest remove ${created}\n/influencers digests\n`,
    );
    const { code } = await app.exited;
    const stdout = app.stdout();
    expect(code).toBe(0);
    const posted = stdout.indexOf('[digest posted in this channel]');
    expect(posted).toBeGreaterThan(0);
    expect(stdout.slice(posted)).toContain('Top influencers for #bcsm');
    expect(stdout.slice(posted)).toContain(
      `Daily digest · Every day at 08:00 Europe/Paris · created by you · id ${created}`,
    );
    expect(stdout).toContain(`Digest ${created} (top 2 of #bcsm in #C0CONSOLE) was removed.`);
    expect(stdout).toContain('No digests in #C0CONSOLE yet.');
  });

  it('writes the canvas of a digest that keeps one to ./exports/canvas-<channel>.md after its post', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'console-canvas-'));
    try {
      const app = startInProcess({ TZ: 'Europe/Paris' }, [], { cwd });
      app.stdin.write('/influencers digest #bcsm every day at 8am top 2 canvas\n');
      const created = await waitFor(() => /Digest ([0-9A-Z]{6}) created/.exec(app.stdout())?.[1]);
      app.stdin.write(`/influencers digest run ${created}\n`);
      const written = '[canvas of this channel written to exports/canvas-C0CONSOLE.md]';
      await waitFor(() => (app.stdout().includes(written) ? true : undefined));
      app.stdin.end();
      const { code } = await app.exited;
      expect(code).toBe(0);
      expect(app.stdout().indexOf(written)).toBeGreaterThan(
        app.stdout().indexOf('[digest posted in this channel]'),
      );
      const markdown = readFileSync(join(cwd, 'exports', 'canvas-C0CONSOLE.md'), 'utf8');
      expect(markdown.startsWith('**Top 2 of \\#bcsm, ranked by mentions**')).toBe(true);
      expect(markdown).toContain('| # | Account | Name | Mentions | Move |');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('prints the Block Kit JSON of the last answer on /json', async () => {
    const { stdout } = await runConsole('#hcsm yesterday\n/json\n');
    const json = stdout.slice(stdout.lastIndexOf('\n{\n'));
    const message = JSON.parse(json.slice(0, json.lastIndexOf('}') + 1)) as {
      text: string;
      blocks: { type: string }[];
    };
    expect(message.text).toMatch(/^Top 10 influencers for #hcsm/);
    expect(message.blocks[0]?.type).toBe('header');
  });

  it.each(['Mars/Olympus', 'Springfield'])(
    "refuses a --tz the parser would not read (%s), with the renderer's words",
    async (tz) => {
      const { code, stdout } = await runConsole('', ['--tz', tz]);
      expect(code).toBe(2);
      expect(stdout).toContain(consoleZoneErrorText(tz));
    },
  );

  it.each([
    ['EST', 'America/New_York'],
    ['Tokyo', 'Asia/Tokyo'],
  ])('reads --tz %s as a lookup reads it after "in": %s', async (tz, zone) => {
    const { stdout } = await runConsole('', ['--tz', tz]);
    expect(stdout).toContain(`Time zone: ${zone}.`);
  });

  it('reads --tz in any case and old names as their canonical zone', async () => {
    const { stdout } = await runConsole('', ['--tz', 'asia/calcutta']);
    expect(stdout).toContain('Time zone: Asia/Kolkata.');
  });

  it('reads dates in the zone given with --tz', async () => {
    const { stdout } = await runConsole('#hcsm yesterday\n', ['--tz', 'Asia/Tokyo']);
    expect(stdout).toContain('Time zone: Asia/Tokyo.');
    expect(stdout).toMatch(/Looking up top influencers for #hcsm, .+ GMT\+9…/);
  });

  it('says that Slack settings without Slack credentials are ignored', async () => {
    const { code, stdout } = await runConsole('', [], {
      SLACK_API_URL: 'https://slack.test/api/',
      SLACK_ALLOWED_TEAM_IDS: 'T0123ABCD',
    });
    expect(code).toBe(0);
    expect(stdout).toContain(
      'SLACK_API_URL and SLACK_ALLOWED_TEAM_IDS are set but ignored here: the console starts when none of the Slack credentials (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_APP_TOKEN) is set.',
    );
  });

  it('answers a greeting and a digest verb without digest with the usage, not a lookup', async () => {
    const { stdout } = await runConsole('hello\npause 3\n');
    expect(stdout).not.toContain('Looking up');
    expect(stdout).toContain('Did you mean `/influencers digest pause 3`?');
  });

  it('keeps logs off stdout and quiet', async () => {
    const { stdout, stderr } = await runConsole('#hcsm yesterday\n');
    expect(stdout).not.toMatch(/"level":/);
    expect(stderr).toBe('');
  });

  it('refuses partial Slack configuration with what is missing', async () => {
    const { code, stdout, stderr } = await runConsole('', [], { SLACK_BOT_TOKEN: 'xoxb-1' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('Cannot start: 4 configuration problems.');
    expect(stderr).toContain(
      '  - SLACK_SIGNING_SECRET is missing: HTTP mode needs SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN',
    );
  });
});

describe('npm start', () => {
  /** The start script's node arguments, run as `npm start` runs them but without npm's own output. */
  function startArgs(): string[] {
    const pkg = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as {
      scripts: { start: string };
    };
    return pkg.scripts.start.split(/\s+/).slice(1);
  }

  const root = new URL('../..', import.meta.url).pathname;

  it.skipIf(existsSync(`${root}.env`))(
    'starts without a .env and says nothing about it',
    async () => {
      const child = spawn(process.execPath, startArgs(), {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', TZ: 'Europe/Paris' },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.stdout.resume();
      child.stdin.end('exit\n');
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      expect(stderr).toBe('');
    },
  );

  it.each([['--help'], ['-h']])('prints how to run it on %s and exits 0', async (flag) => {
    const { code, stdout, stderr } = await runConsole('', [flag], { SLACK_BOT_TOKEN: 'xoxb-1' });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(`${startUsageText}\n`);
  });
});
