/**
 * `npm run bench [-- part ...]`: runs the benchmark parts in order (all by default). Each part
 * measures what users feel and prints its figures beside a baseline measured in the same run,
 * because these machines are too noisy for absolute numbers to mean much.
 */
import { existsSync } from 'node:fs';

const allParts = ['api', 'parse', 'slack', 'digests', 'answer', 'oversized', 'mcp'] as const;
/** Parts run only when named: the slack part already runs the hostile phase. */
const namedOnlyParts = ['hostile'] as const;

interface BenchPart {
  run(): Promise<void>;
}

const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const known: readonly string[] = [...allParts, ...namedOnlyParts];
const unknown = asked.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown bench part(s): ${unknown.join(', ')}. Parts: ${known.join(', ')}`);
  process.exit(2);
}

for (const name of asked.length > 0 ? asked : allParts) {
  const file = new URL(`./${name}.ts`, import.meta.url);
  if (!existsSync(file)) {
    console.log(`\n== ${name}: not present, skipped`);
    continue;
  }
  console.log(`\n== ${name}`);
  const part = (await import(file.href)) as BenchPart;
  await part.run();
}
