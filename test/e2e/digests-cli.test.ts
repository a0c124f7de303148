import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CronSchedule } from '../../src/model/digest.ts';
import { demoClient } from '../../src/sandbox/server.ts';
import { openDatabase } from '../../src/store/open.ts';
import { migrations } from '../../src/store/sql/migrations.ts';
import { latestRunAtOrBefore } from '../../src/time/schedule.ts';
import { useJobServices } from '../helpers/job-services.ts';
import { type CliRun, runCli, spawnCli } from '../helpers/run-cli.ts';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const asRun = ({ status, stdout, stderr }: CliRun): Run => ({ code: status, stdout, stderr });

/** `node src/cli.ts ...args` in a process of its own, with exactly `env` (plus PATH and TZ). */
async function cli(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return asRun(await spawnCli(args, env));
}

/** The same command line run in this process, where the process itself is not under test. */
async function inProcess(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return asRun(await runCli(args, { env: { TZ: 'Europe/Paris', ...env } }));
}

const services = useJobServices('digests-cli-');

describe('node src/cli.ts migrate', () => {
  it('applies the migrations once, then finds the store up to date', async () => {
    const path = join(services.dir, 'migrate.sqlite');
    const first = await cli(['migrate', '--sqlite', path]);
    expect(first).toMatchObject({
      code: 0,
      stdout: `SQLite ${path}: applied ${migrations.length} migration(s)\n`,
    });
    const again = await cli(['migrate', '--sqlite', path]);
    expect(again).toMatchObject({ code: 0, stdout: `SQLite ${path}: already up to date\n` });
  });
});

describe('node src/cli.ts digests run-due', () => {
  it('lists every missing variable and exits 2 without touching the store', async () => {
    const path = join(services.dir, 'unconfigured.sqlite');
    const run = await inProcess(['digests', 'run-due', '--sqlite', path], {
      ANALYTICS_CLIENT_ID: 'id',
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('digests run-due cannot start: 3 configuration problem(s).');
    for (const name of ['SLACK_BOT_TOKEN', 'ANALYTICS_BASE_URL', 'ANALYTICS_CLIENT_SECRET']) {
      expect(run.stderr).toContain(`- ${name} is missing`);
    }
    expect(run.stderr).not.toContain('ANALYTICS_CLIENT_ID is missing');
    expect(existsSync(path)).toBe(false);
  });

  it('posts a due digest exactly once when two run at the same time', async () => {
    const path = join(services.dir, 'due.sqlite');
    expect((await inProcess(['migrate', '--sqlite', path])).code).toBe(0);
    const schedule: CronSchedule = {
      kind: 'cron',
      expression: '0 * * * *',
      zone: 'Europe/London',
      cadence: 'custom',
    };
    const store = await openDatabase({ sqlitePath: path });
    const digest = await store.digests.create(
      {
        teamId: 'T0TEAM001',
        channelId: 'C0CRONJOB1',
        creatorId: 'U0PERSON1',
        databases: ['#hcsm'],
        schedule,
        window: { kind: 'since-previous-run' },
        top: 5,
        nextRunAt: latestRunAtOrBefore(schedule, new Date()) ?? new Date(),
      },
      new Date(),
    );
    await store.close();

    const env = {
      SLACK_BOT_TOKEN: 'xoxb-cli-bot-token',
      SLACK_API_URL: `${services.slack.url}/api/`,
      ANALYTICS_BASE_URL: services.sandbox.url,
      ANALYTICS_CLIENT_ID: demoClient.id,
      ANALYTICS_CLIENT_SECRET: demoClient.secret,
      LOG_LEVEL: 'warn',
    };
    const runs = await Promise.all([
      cli(['digests', 'run-due', '--sqlite', path], env),
      cli(['digests', 'run-due', '--sqlite', path], env),
    ]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^SQLite .*: claimed [01], posted [01], failed 0, /);
    }
    const posted = runs.map((run) => Number(/posted (\d)/.exec(run.stdout)?.[1]));
    expect(posted.sort()).toEqual([0, 1]);

    const posts = services.slack.slack.api('chat.postMessage');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.args.channel).toBe('C0CRONJOB1');
    expect(posts[0]?.authorization).toBe('Bearer xoxb-cli-bot-token');
    expect(JSON.stringify(posts[0]?.args.blocks)).toContain('Top influencers for #hcsm');

    const after = await openDatabase({ sqlitePath: path });
    try {
      const stored = await after.digests.get(digest.id);
      expect(stored?.lastRun?.outcome).toBe('posted');
      expect(stored?.nextRunAt.getTime()).toBeGreaterThan(Date.now());
    } finally {
      await after.close();
    }
    expect((await inProcess(['digests', 'run-due', '--sqlite', path], env)).stdout).toContain(
      'claimed 0, posted 0',
    );
    expect(services.slack.slack.api('chat.postMessage')).toHaveLength(1);
  }, 30_000);
});
