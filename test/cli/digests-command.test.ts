import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutletsFactory, runDigests } from '../../src/cli/digests-command.ts';
import { sameOutletForEveryTeam } from '../../src/digests/outlets.ts';
import type { CronSchedule, NewDigest } from '../../src/model/digest.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { openDatabase } from '../../src/store/open.ts';
import { latestRunAtOrBefore } from '../../src/time/schedule.ts';
import { FakeConferencePoster } from '../digests/conferences/helpers.ts';
import { FakeClock } from '../digests/helpers.ts';

const hourly: CronSchedule = {
  kind: 'cron',
  expression: '0 * * * *',
  zone: 'Europe/London',
  cadence: 'custom',
};

function captured() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { stream, text: () => text };
}

describe('digests run-due', () => {
  let dir: string;
  let sandbox: Sandbox;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'digests-command-'));
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the runs held for an outage, the probes and the runs kept quiet beside the posts', async () => {
    const now = new Date();
    const latest = latestRunAtOrBefore(hourly, now) ?? now;
    const path = join(dir, 'report.sqlite');
    const store = await openDatabase({ sqlitePath: path });
    const digest = (teamId: string, extra: Partial<NewDigest> = {}): NewDigest => ({
      teamId,
      channelId: `C${teamId}`,
      creatorId: 'U0PERSON1',
      databases: ['#hcsm'],
      schedule: hourly,
      window: { kind: 'since-previous-run' },
      top: 5,
      nextRunAt: latest,
      ...extra,
    });
    // On hold, not yet probed: its slot from two hours ago is held (the older ones skipped).
    await store.digests.create(
      digest('T1', { nextRunAt: new Date(latest.getTime() - 2 * 3_600_000) }),
      now,
    );
    await store.outages.open('T1', 'analytics_unavailable', now, new Date(now.getTime() + 600_000));
    // On hold with its probe due: the probe posts and closes the outage.
    await store.digests.create(digest('T2'), now);
    await store.outages.open('T2', 'analytics_unavailable', now, new Date(now.getTime() - 1_000));
    // A watch's first run records its ranking without posting.
    await store.digests.create(digest('T3', { top: 3, postWhen: 'new' }), now);
    await store.close();

    const posts: { channel: string; message: SlackMessage }[] = [];
    const outlet: OutletsFactory = () =>
      sameOutletForEveryTeam({
        poster: {
          async post(channel, message) {
            posts.push({ channel, message });
            return { ts: `1700000000.00000${posts.length}` };
          },
          async notifyCreator() {},
          async notifyAdmins() {},
          async workspace() {
            return undefined;
          },
        },
        displayName: async () => undefined,
      });
    const stdout = captured();
    const stderr = captured();
    const code = await runDigests(
      ['run-due', '--sqlite', path],
      {
        stdout: stdout.stream,
        stderr: stderr.stream,
        now: () => now,
        env: {
          SLACK_BOT_TOKEN: 'xoxb-cli-bot-token',
          ANALYTICS_BASE_URL: sandbox.url,
          ANALYTICS_CLIENT_ID: demoClient.id,
          ANALYTICS_CLIENT_SECRET: demoClient.secret,
          LOG_LEVEL: 'error',
        },
      },
      outlet,
    );

    expect(code, stderr.text()).toBe(0);
    expect(stdout.text()).toBe(
      `SQLite ${path}: claimed 3, posted 1, failed 0, skipped 0, unconfirmed 0, paused 0, ` +
        'held for an outage 1, outage probes 1, ' +
        'not posted as unchanged (only when changed, only new) 1, analytics calls 2\n',
    );
    expect(posts.map((post) => post.channel)).toEqual(['CT2']);
  });

  it('brings the conferences due up to date in the same tick', async () => {
    const now = new Date();
    const path = join(dir, 'conferences.sqlite');
    const store = await openDatabase({ sqlitePath: path });
    const day = (offset: number) =>
      new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    await store.conferences?.create(
      {
        teamId: 'T1',
        channelId: 'C0CONF',
        creatorId: 'U0PERSON1',
        databases: ['#hcsm'],
        firstDay: day(-1),
        lastDay: day(1),
        zone: 'UTC',
        watch: [],
        top: 5,
        refreshMinutes: 15,
        nextRunAt: new Date(now.getTime() - 60_000),
      },
      now,
    );
    await store.close();
    const conferencePoster = new FakeConferencePoster(new FakeClock(now));
    const outlet: OutletsFactory = () =>
      sameOutletForEveryTeam({
        poster: {
          async post() {
            return { ts: '1700000000.000001' };
          },
          async notifyCreator() {},
          async notifyAdmins() {},
          async workspace() {
            return undefined;
          },
        },
        displayName: async () => undefined,
        conferencePoster,
      });
    const stderr = captured();
    const stdout = captured();
    const code = await runDigests(
      ['run-due', '--sqlite', path],
      {
        stdout: stdout.stream,
        stderr: stderr.stream,
        now: () => now,
        env: {
          SLACK_BOT_TOKEN: 'xoxb-cli-bot-token',
          ANALYTICS_BASE_URL: sandbox.url,
          ANALYTICS_CLIENT_ID: demoClient.id,
          ANALYTICS_CLIENT_SECRET: demoClient.secret,
          LOG_LEVEL: 'error',
        },
      },
      outlet,
    );
    expect(code, stderr.text()).toBe(0);
    const [board, recap] = conferencePoster.of('post');
    expect(board?.message?.text).toContain('day 2 of 3');
    expect(recap?.threadTs).toBe(board?.ts);
    expect(recap?.message?.text).toContain('day 1 recap');
    expect(conferencePoster.of('pin')).toHaveLength(1);
    expect(stdout.text()).toContain(
      'conferences: claimed 1, updated 0, leaderboards posted 1, day recaps 1, final recaps 0, ' +
        'skipped to the next refresh 0, ended by a failure 0, analytics calls 2\n',
    );
  });
});
