import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { safeFileName, saveCanvas, saveExport } from '../../src/console/exports.ts';

let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'exports-'));
});

afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('saveExport', () => {
  it('writes the file under exports/ and gives the path to print', async () => {
    const content = '\uFEFFrank,name\r\n1,Jane\r\n';
    const path = await saveExport({ filename: 'influencers #hcsm.csv', content }, cwd);
    expect(path).toBe('exports/influencers #hcsm.csv');
    expect(await readFile(join(cwd, path))).toEqual(Buffer.from(content, 'utf8'));
  });

  it('never overwrites an earlier export of the same name', async () => {
    const file = { filename: 'ranking.csv', content: 'a\r\n' };
    const paths = [
      await saveExport(file, cwd),
      await saveExport({ ...file, content: 'b\r\n' }, cwd),
      await saveExport({ ...file, content: 'c\r\n' }, cwd),
    ];
    expect(paths).toEqual([
      'exports/ranking.csv',
      'exports/ranking (2).csv',
      'exports/ranking (3).csv',
    ]);
    expect(await readFile(join(cwd, 'exports/ranking.csv'), 'utf8')).toBe('a\r\n');
  });
});

describe('safeFileName', () => {
  it.each([
    ['#hcsm 2026-11-09T00:00:00+01:00.csv', '#hcsm 2026-11-09T00_00_00+01_00.csv'],
    ['group:"Rare Diseases"/x.csv', 'group__Rare Diseases__x.csv'],
    ['../../etc/passwd', '_.._etc_passwd'],
    ['...', 'export.csv'],
    ['tab\there.csv', 'tab_here.csv'],
  ])('makes %j a name every file system takes', (name, safe) => {
    expect(safeFileName(name)).toBe(safe);
  });

  it('keeps a long name under the file system limit', () => {
    const safe = safeFileName(`${'é'.repeat(300)}.csv`);
    expect(Buffer.byteLength(safe)).toBeLessThanOrEqual(240);
    expect(safe).toMatch(/^é+\.csv$/);
  });
});

describe('saveCanvas', () => {
  it("replaces the channel's canvas file at each run, as Slack replaces the document", async () => {
    expect(await saveCanvas('C0CONSOLE', 'first run', cwd)).toBe('exports/canvas-C0CONSOLE.md');
    expect(await saveCanvas('C0CONSOLE', 'second run', cwd)).toBe('exports/canvas-C0CONSOLE.md');
    expect(await readFile(join(cwd, 'exports', 'canvas-C0CONSOLE.md'), 'utf8')).toBe('second run');
  });

  it('gives a canvas of its own to a second canvas of the channel, and rewrites each by its path', async () => {
    const taken = new Set(['exports/canvas-C0CONSOLE.md']);
    const second = await saveCanvas('C0CONSOLE', 'second digest', cwd, { taken });
    expect(second).toBe('exports/canvas-C0CONSOLE (2).md');
    const first = { path: 'exports/canvas-C0CONSOLE.md', taken: new Set([...taken, second]) };
    expect(await saveCanvas('C0CONSOLE', 'first digest', cwd, first)).toBe(first.path);
    expect(await readFile(join(cwd, second), 'utf8')).toBe('second digest');
    expect(await readFile(join(cwd, first.path), 'utf8')).toBe('first digest');
  });
});
