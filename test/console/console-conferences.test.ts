/**
 * The console runs a conference as Slack would: the leaderboard printed when it is posted, and
 * again at each update, `conference tick` bringing the next update now. In-process, against the
 * sandbox it starts, on today's date in Paris.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.ts';
import { runConsole } from '../../src/console/console.ts';

async function until(probe: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the console');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the console with a conference', () => {
  it('prints the leaderboard when it starts, then the update `conference tick` runs', async () => {
    const input = new PassThrough();
    let out = '';
    const output = new Writable({
      write(chunk, _encoding, done) {
        out += String(chunk);
        done();
      },
    });
    const config = loadConfig({ DIGESTS_ENABLED: 'false' });
    if (config.mode !== 'console') throw new Error('expected the console');
    const running = runConsole(config, { input, output, zone: 'Europe/Paris' });
    const today = DateTime.now().setZone('Europe/Paris');
    const days = `from ${today.toISODate()} to ${today.plus({ days: 1 }).toISODate()}`;
    try {
      input.write(`/influencers conference #hcsm ${days} watch @nobody_here top 5\n`);
      await until(() => out.includes('[leaderboard posted and pinned in this channel]'));
      expect(out).toMatch(/Conference \w{6} created/);
      expect(out).toContain('Live leaderboard · #hcsm');
      expect(out).toMatch(/Day 1 of 2 · \w{3} \w{3} \d+ \(Central European\)/);
      expect(out).toContain('@nobody_here not in the top 500');

      input.write('/influencers conference tick\n');
      await until(() => out.includes('[leaderboard updated in place]'));
      await until(() => out.includes('1 leaderboard brought up to date'));
    } finally {
      input.end();
      await running;
    }
  });

  it('writes the canvas of a conference that keeps one to ./exports/canvas-<channel>.md at its final recap', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'console-conference-canvas-'));
    const input = new PassThrough();
    let out = '';
    const output = new Writable({
      write(chunk, _encoding, done) {
        out += String(chunk);
        done();
      },
    });
    const config = loadConfig({ DIGESTS_ENABLED: 'false' });
    if (config.mode !== 'console') throw new Error('expected the console');
    const running = runConsole(config, { input, output, zone: 'Europe/Paris', cwd });
    const today = DateTime.now().setZone('Europe/Paris');
    const days = `from ${today.toISODate()} to ${today.plus({ days: 1 }).toISODate()}`;
    try {
      input.write(`/influencers conference #hcsm ${days} top 5 canvas\n`);
      await until(() => out.includes('[leaderboard posted and pinned in this channel]'));
      const id = /Conference (\w{6}) created/.exec(out)?.[1];
      const written = '[canvas of this channel written to exports/canvas-C0CONSOLE.md]';
      expect(out).not.toContain(written);
      input.write(`/influencers conference stop ${id}\n`);
      await until(() => out.includes(written));
      const markdown = readFileSync(join(cwd, 'exports', 'canvas-C0CONSOLE.md'), 'utf8');
      expect(markdown).toContain('Stopped before its last day: this is the final report.');
      expect(markdown).toContain('## Top 5 of the congress');
      expect(markdown).not.toMatch(/^# /m);
    } finally {
      input.end();
      await running;
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
