/**
 * The console does what Slack does with the same lines: a digest `to me` and a digest typed bare
 * (the DM) post in the console's DM, "your time" is the console's zone, each digest keeps a canvas
 * file of its own, and the docs' first conference example runs against the sandbox.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startInProcess } from '../helpers/run-start.ts';

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the console');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The console with `lines` typed, each after the one before was answered with `waitFor`. */
async function session(
  steps: readonly { readonly type: string; readonly until?: (out: string) => boolean }[],
  options: { readonly args?: string[]; readonly cwd?: string } = {},
): Promise<string> {
  const app = startInProcess(
    { TZ: 'Europe/Paris' },
    options.args ?? [],
    options.cwd === undefined ? {} : { cwd: options.cwd },
  );
  for (const step of steps) {
    app.stdin.write(`${step.type}\n`);
    const until = step.until;
    if (until !== undefined) await waitFor(() => (until(app.stdout()) ? true : undefined));
  }
  app.stdin.end();
  const { code } = await app.exited;
  expect(code).toBe(0);
  return app.stdout();
}

const createdIds = (out: string) =>
  [...out.matchAll(/Digest ([0-9A-Z]{6}) created/g)].map((match) => match[1] as string);

describe('the console, as Slack', () => {
  it('posts a digest `to me` in the console’s DM, not in the channel', async () => {
    const app = startInProcess({ TZ: 'Europe/Paris' });
    app.stdin.write('/influencers digest #bcsm every day at 8am top 2 to me\n');
    const id = await waitFor(() => createdIds(app.stdout())[0]);
    app.stdin.end(`/influencers digest run ${id}\n/influencers digests\ndigests\n`);
    await app.exited;
    const out = app.stdout();
    expect(out).toContain('[digest posted in your DM]');
    expect(out).not.toContain('[digest posted in this channel]');
    expect(out).toContain('No digests in #C0CONSOLE yet.');
  });

  it('creates a digest typed bare, as in Slack’s DM, and posts it there', async () => {
    const app = startInProcess({ TZ: 'Europe/Paris' });
    app.stdin.write('digest #bcsm every day at 8am top 2\n');
    const id = await waitFor(() => createdIds(app.stdout())[0]);
    app.stdin.end(`digest run ${id}\ndigests\n`);
    await app.exited;
    const out = app.stdout();
    expect(out).not.toContain('Digests and watches are created where they post');
    expect(out).toContain('[digest posted in your DM]');
    expect(out).toContain(`${id} · top 2 of #bcsm`);
  });

  it('says "your time" in the console’s zone', async () => {
    const out = await session(
      [{ type: '/influencers digest #hcsm every monday at 9am in America/New_York' }],
      { args: ['--tz', 'Asia/Tokyo'] },
    );
    // 09:00 in New York is 23:00 in Tokyo.
    expect(out).toMatch(/09:00 EST \(your time: [A-Z][a-z]{2} \d+, \d{4} 23:00 GMT\+9\)/);
  });

  it('keeps a canvas file for each digest of the channel', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'console-canvases-'));
    try {
      const app = startInProcess({ TZ: 'Europe/Paris' }, [], { cwd });
      app.stdin.write('/influencers digest #bcsm every day at 8am top 2 canvas\n');
      app.stdin.write('/influencers digest #lcsm every day at 8am top 2 canvas\n');
      const [first, second] = await waitFor(() => {
        const ids = createdIds(app.stdout());
        return ids.length === 2 ? ids : undefined;
      });
      const written = (file: string) => `[canvas of this channel written to exports/${file}]`;
      const count = (text: string) => app.stdout().split(text).length - 1;
      app.stdin.write(`/influencers digest run ${first}\n`);
      await waitFor(() => (count(written('canvas-C0CONSOLE.md')) === 1 ? true : undefined));
      app.stdin.write(`/influencers digest run ${second}\n`);
      await waitFor(() => (count(written('canvas-C0CONSOLE (2).md')) === 1 ? true : undefined));
      app.stdin.write(`/influencers digest run ${first}\n`);
      await waitFor(() => (count(written('canvas-C0CONSOLE.md')) === 2 ? true : undefined));
      app.stdin.end();
      await app.exited;
      const file = (name: string) => readFileSync(join(cwd, 'exports', name), 'utf8');
      expect(file('canvas-C0CONSOLE.md')).toContain('Top 2 of \\#bcsm');
      expect(file('canvas-C0CONSOLE (2).md')).toContain('Top 2 of \\#lcsm');
      expect(existsSync(join(cwd, 'exports', 'canvas-C0CONSOLE (3).md'))).toBe(false);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('runs the first conference example of the docs against the sandbox', async () => {
    const docs = readFileSync(join(import.meta.dirname, '../../docs/conferences.md'), 'utf8');
    const example = /^\/influencers conference .+$/m.exec(docs)?.[0];
    expect(example).toBeDefined();
    const out = await session([
      {
        type: example ?? '',
        until: (text) => /Conference \w{6} created|There is no database/.test(text),
      },
    ]);
    expect(out).toMatch(/Conference \w{6} created/);
    expect(out).not.toContain('There is no database');
  });
});
