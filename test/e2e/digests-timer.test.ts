import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CronSchedule } from '../../src/model/digest.ts';
import { demoClient } from '../../src/sandbox/server.ts';
import { openDatabase } from '../../src/store/open.ts';
import { latestRunAtOrBefore } from '../../src/time/schedule.ts';
import { useJobServices } from '../helpers/job-services.ts';
import { spawnApp, waitForOutput } from '../helpers/spawn-app.ts';

const services = useJobServices('digests-timer-');

async function dueDigest(path: string, channelId: string): Promise<void> {
  const schedule: CronSchedule = {
    kind: 'cron',
    expression: '0 * * * *',
    zone: 'Asia/Tokyo',
    cadence: 'custom',
  };
  const store = await openDatabase({ sqlitePath: path });
  try {
    await store.digests.create(
      {
        teamId: 'T0TEAM001',
        channelId,
        creatorId: 'U0PERSON1',
        databases: ['#hcsm'],
        schedule,
        window: { kind: 'since-previous-run' },
        top: 3,
        nextRunAt: latestRunAtOrBefore(schedule, new Date()) ?? new Date(),
      },
      new Date(),
    );
  } finally {
    await store.close();
  }
}

function appEnv(path: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TZ: 'Europe/Paris',
    PORT: '0',
    SLACK_SIGNING_SECRET: 'timer-signing-secret',
    SLACK_BOT_TOKEN: 'xoxb-timer-bot-token',
    SLACK_API_URL: `${services.slack.url}/api/`,
    ANALYTICS_BASE_URL: services.sandbox.url,
    ANALYTICS_CLIENT_ID: demoClient.id,
    ANALYTICS_CLIENT_SECRET: demoClient.secret,
    DIGESTS_SQLITE_PATH: path,
    ...extra,
  };
}

describe('the in-app digest timer in HTTP mode', () => {
  it('posts a due digest after start, and stops with the app on SIGTERM', async () => {
    const path = join(services.dir, 'timer.sqlite');
    await dueDigest(path, 'C0TIMER001');
    const app = spawnApp(appEnv(path));
    try {
      await waitForOutput(app.stdout, /"msg":"digest timer started"/);
      await services.slack.slack.waitFor(
        (call) => call.method === 'chat.postMessage' && call.args.channel === 'C0TIMER001',
      );
      const signalledAt = performance.now();
      app.child.kill('SIGTERM');
      const exit = await app.exited;
      expect(exit.code).toBe(0);
      expect(exit.at - signalledAt).toBeLessThan(25_000);
      expect(app.stdout()).toContain('"msg":"stopped"');
    } finally {
      app.child.kill('SIGKILL');
    }
    const posts = services.slack.slack
      .api('chat.postMessage')
      .filter((call) => call.args.channel === 'C0TIMER001');
    expect(posts).toHaveLength(1);
  }, 30_000);

  it('leaves due digests to a platform scheduler when DIGESTS_ENABLED=false', async () => {
    const path = join(services.dir, 'disabled.sqlite');
    await dueDigest(path, 'C0TIMER002');
    const app = spawnApp(appEnv(path, { DIGESTS_ENABLED: 'false' }));
    try {
      await waitForOutput(app.stdout, /"msg":"started in http mode"/);
      expect(app.stdout()).toContain('digest timer disabled (DIGESTS_ENABLED=false)');
      await new Promise((resolve) => setTimeout(resolve, 500));
      app.child.kill('SIGTERM');
      expect((await app.exited).code).toBe(0);
    } finally {
      app.child.kill('SIGKILL');
    }
    expect(
      services.slack.slack
        .api('chat.postMessage')
        .filter((call) => call.args.channel === 'C0TIMER002'),
    ).toEqual([]);
  }, 30_000);
});
