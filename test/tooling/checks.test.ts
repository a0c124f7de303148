import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

/** A folder inside the repo, so the project's own tsconfig and Biome settings apply to it. */
let probeDir: string;

beforeAll(() => {
  probeDir = mkdtempSync(join(root, 'test', 'tooling', 'probe-'));
});

afterAll(() => {
  rmSync(probeDir, { recursive: true, force: true });
});

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
}

describe('the type check', () => {
  it("knows Node 24's ES2025 library and refuses a side-effect import that resolves nowhere", () => {
    writeFileSync(
      join(probeDir, 'probe.ts'),
      [
        "import './no-such-module.ts';",
        'export const union = new Set([1]).union(new Set([2]));',
        'export const firstTwo = [1, 2, 3].values().take(2).toArray();',
        'export const tried = Promise.try(() => 1);',
        'export const isError = Error.isError(new Error());',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(probeDir, 'tsconfig.json'),
      JSON.stringify({ extends: '../../../tsconfig.json', include: ['probe.ts'] }),
    );
    const output = run(bin('tsc'), ['--noEmit', '-p', join(probeDir, 'tsconfig.json')]);
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/no-such-module/);
  });
});

describe('the lint', () => {
  it('refuses a floating promise and a promise used as a condition', () => {
    const file = join(probeDir, 'promises.ts');
    writeFileSync(
      file,
      [
        'async function work(): Promise<number> {',
        '  return 1;',
        '}',
        'export function run(): void {',
        '  work();',
        '  if (work()) console.log(1);',
        '}',
        '',
      ].join('\n'),
    );
    // The probe folder is git-ignored, so it is linted without the ignore file.
    const output = run(bin('biome'), ['lint', '--vcs-use-ignore-file=false', file]);
    expect(output).toContain('lint/nursery/noFloatingPromises');
    expect(output).toContain('lint/nursery/noMisusedPromises');
  });
});
