/**
 * `npm run layers`: the layering of src/ (.dependency-cruiser.cjs) and the size of its files.
 * Fails on any violation, and when dependency-cruiser read no TypeScript at all (it silently
 * cruises nothing when it has no compiler it can use for .ts).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Past this a file holds more than one job. */
const maxFileLines = 600;

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
  readonly cycle?: readonly { readonly name: string }[];
}

const cruise = spawnSync(
  join('node_modules', '.bin', 'depcruise'),
  ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
  { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
if (cruise.error !== undefined || cruise.stdout === '') {
  console.error(
    `layers: dependency-cruiser did not run: ${cruise.error?.message ?? cruise.stderr}`,
  );
  process.exit(1);
}
const { summary } = JSON.parse(cruise.stdout) as {
  summary: { violations: Violation[]; totalCruised: number; totalDependenciesCruised: number };
};
const tsFiles = (readdirSync('src', { recursive: true }) as string[]).filter((f) =>
  f.endsWith('.ts'),
);
const problems: string[] = [];
if (summary.totalCruised < tsFiles.length) {
  problems.push(
    `dependency-cruiser read ${summary.totalCruised} modules but src/ has ${tsFiles.length} .ts files: check \`npx depcruise --info\` ticks .ts (it needs @swc/core with TypeScript 7).`,
  );
}
for (const v of summary.violations) {
  const path = v.cycle?.map((step) => step.name).join(' -> ');
  problems.push(`${v.rule.name}: ${v.from} -> ${path ?? v.to}`);
}
for (const file of tsFiles) {
  const lines = readFileSync(join('src', file), 'utf8').split('\n').length - 1;
  if (lines > maxFileLines) {
    problems.push(`file-size: src/${file} has ${lines} lines (at most ${maxFileLines})`);
  }
}
// The bot token is read from the configuration by the composition and handed to the Slack access
// (slack/web-api/access.ts), which answers "which token for this workspace?": nothing else reads it.
const tokenReaders = new Set(['app.ts', 'cli.ts', 'slack/web-api/access.ts']);
for (const file of tsFiles) {
  if (tokenReaders.has(file) || file.startsWith('config/')) continue;
  if (/[\w)\]]\.botToken\b(?!\s*\()/.test(readFileSync(join('src', file), 'utf8'))) {
    problems.push(`bot-token: src/${file} reads the bot token; ask SlackAccess.forTeam() instead`);
  }
}
if (problems.length > 0) {
  console.error(`layers: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `layers: ${summary.totalCruised} modules, ${summary.totalDependenciesCruised} imports, no violation; no file over ${maxFileLines} lines`,
);
