/**
 * The console prints a trend (its table as columns, its chart as sparklines), saves its CSV file
 * under ./exports/, and answers a question about one person, as Slack would show them: run
 * in-process against the sandbox it starts.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.ts';
import { runConsole } from '../../src/console/console.ts';
import { parseCsv } from '../helpers/csv.ts';

async function until<T>(probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the console');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the console with trends and one person', () => {
  it('prints a weekly trend, saves its file, and answers how one of its people did', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'console-trends-'));
    const before = process.cwd();
    process.chdir(cwd);
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
    try {
      input.write('/influencers #hcsm last 4 weeks weekly export\n');
      const path = await until(
        () => /\[CSV export saved to (exports\/[^\]]+\.csv)\]/.exec(out)?.[1],
      );
      expect(out).toMatch(/Looking up weekly ranks of top influencers for #hcsm, /);
      expect(out).toContain('Weekly trend for #hcsm');
      // The table as aligned columns: the person, then each week's "#rank · mentions".
      expect(out).toMatch(
        /\nInfluencer +\w{3} \d+ +\w{3} \d+ +\w{3} \d+ +\w{3} \d+(?: · so far)?\n/,
      );
      const first = /\n(@\w+) +(?:#\d+ · [\d.]+K?|–) /.exec(out)?.[1];
      expect(first).toBeDefined();
      // The chart as one sparkline per person.
      expect(out).toMatch(/\n@\w+ +[▁▂▃▄▅▆▇█·]{4} {2}[\d.]+K?\n/);
      const rows = parseCsv(readFileSync(join(cwd, path), 'utf8'));
      expect(rows[0]?.slice(0, 4)).toEqual(['Period start', 'Period end', 'Partial', 'Rank']);
      expect(rows.slice(1).filter((row) => `@${row[5]}` === first)).toHaveLength(4);

      const answered = out.length;
      input.write(`how did ${first} do in #hcsm this month?\n`);
      await until(() => (out.slice(answered).includes('Rank by week') ? true : undefined));
      const person = out.slice(answered);
      expect(person).toContain(`Looking up ${first} in #hcsm, `);
      expect(person).toContain(`${first} in #hcsm\n`);
      expect(person).toMatch(/ of the top 500 by mentions/);
      expect(person.match(/\nThe week of \w{3} \d+(?: \(so far\))?: /g)).toHaveLength(8);
    } finally {
      input.end();
      await running;
      process.chdir(before);
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
