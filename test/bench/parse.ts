/**
 * Commands parsed per second on one core over a mixed corpus of realistic commands, beside
 * chrono-node's own `parseDate` over the same corpus as the reference.
 */
import * as chrono from 'chrono-node';
import { parseLookup } from '../../src/parsing/index.ts';

const corpus = [
  '#hcsm last week',
  '#pharma past 48 hours',
  '"rare disease", group:12 since Oct 3',
  '#x from 2026-09-01 to 2026-09-08 tz Asia/Tokyo',
  '#bcsm last quarter',
  '#hcsm tuesday',
  '#hcsm yesterday',
  '#hcsm today top 20',
  '#hcsm, #bcsm this month',
  'breast cancer 2 weeks ago to now',
  '#hcsm from Sep 1 through Sep 8',
  '#hcsm between Sep 1 and Sep 8 in Europe/London',
  '&lt;#C0123|hcsm&gt; last 7 days',
  '“patient safety” since monday',
  'group:"Rare Diseases" ytd',
  '#hcsm 10d limit 5',
  '#hcsm 3w',
  '4711 last month',
  '#hcsm Q3 2026',
  '#hcsm December',
  '#hcsm Nov 3',
  '#hcsm since 9/1/26',
  '#hcsm from 9/1/2026 2pm to 9/2/2026 7:45 am',
  '#hcsm since 2026-11-20T10:00:00+02:00',
  '#hcsm since 1763000000',
  '#hcsm last year tz:america/new_york',
  '#hcsm year to date',
  '#hcsm this week timezone UTC',
  '#hcsm a month ago',
  '#oncology, #bcsm, #lcsm past 30 days top 50',
  '#hcsm',
  '#hcsm September 9, 2026',
  '#hcsm 9 Sep 2026',
  '#hcsm since yesterday 14:05',
  '#hcsm last friday',
];

const now = new Date('2026-11-21T15:30:00Z');

function rate(label: string, fn: (text: string) => unknown): number {
  for (let i = 0; i < 2_000; i++) fn(corpus[i % corpus.length] as string);
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < 1_500) {
    for (const text of corpus) fn(text);
    count += corpus.length;
    elapsed = performance.now() - started;
  }
  const perSecond = (count / elapsed) * 1000;
  console.log(
    `${label.padEnd(28)} ${Math.round(perSecond).toLocaleString('en-US').padStart(10)} commands/s`,
  );
  return perSecond;
}

export async function run(): Promise<void> {
  console.log(`corpus: ${corpus.length} distinct commands, one core, now = ${now.toISOString()}`);
  const ours = rate('parseLookup', (text) => parseLookup(text, { now, zone: 'America/New_York' }));
  const reference = rate('chrono-node parseDate', (text) => chrono.parseDate(text, now));
  console.log(
    `ratio parseLookup / chrono: ${(ours / reference).toFixed(2)} (target >= 20,000 commands/s)`,
  );
}
