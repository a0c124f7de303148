/**
 * `/influencers digest history <id>`: a digest's latest runs, newest first, each with when it ran,
 * the window it covered, its top 3 and who entered or left its top N, or why it did not post.
 * Pure; the runs come from the store (`RunRepository.recent`).
 */
import type { KnownBlock } from '@slack/types';
import type { Digest } from '../../model/digest.ts';
import type { DigestRun, DigestRunEntry } from '../../model/digest-run.ts';
import type { SlackMessage } from '../../model/message.ts';
import { context, section } from '../blocks.ts';
import { failureWords } from '../digests/digest-failures.ts';
import { digestNoun, digestSubject, scheduleWords, zonedTime } from '../digests/digest-words.ts';
import { escapeMrkdwn, formatWindow, truncateMrkdwn } from '../format.ts';
import { blockKitLimits, checked } from '../limits.ts';
import { commandMrkdwn } from '../lookups/help.ts';
import { metricFigure } from '../lookups/metric-words.ts';
import { bareHandle } from '../lookups/ranking.ts';
import { skipWords } from './digest-management.ts';

/** How many runs the history shows. */
export const historyRunsShown = 12;

/** Handles a run line names at most, for who entered or left. */
const movesNamed = 5;

export interface DigestHistoryOptions {
  readonly now: Date;
  readonly command?: string;
}

/** The digest, then one section per run, newest first; "no runs yet" before the first. */
export function renderDigestHistory(
  digest: Digest,
  runs: readonly DigestRun[],
  options: DigestHistoryOptions,
): SlackMessage {
  const zone = digest.schedule.zone;
  const noun = digestNoun(digest);
  const heading = section(
    `*${noun} ${escapeMrkdwn(digest.id)}* · ${digestSubject(digest)} · ${escapeMrkdwn(scheduleWords(digest))}`,
  );
  if (runs.length === 0) {
    const cmd = commandMrkdwn(options.command);
    return checked({
      text: `${noun} ${digest.id} has not run yet.`,
      blocks: [
        heading,
        context(
          `No runs yet. \`${cmd} digest run ${escapeMrkdwn(digest.id)}\` posts it now; its runs show here from then on.`,
        ),
      ],
    });
  }
  const shown = runs.slice(0, historyRunsShown);
  const blocks: KnownBlock[] = [
    heading,
    context(`The last ${shown.length} run${shown.length === 1 ? '' : 's'}, newest first.`),
    ...shown.map((run) => section(truncateMrkdwn(runLines(run, digest, options.now), 3000))),
  ];
  const text = truncateMrkdwn(
    `${noun} ${digest.id}: the last ${shown.length} run${shown.length === 1 ? '' : 's'}. ${shown
      .map((run) => `${zonedTime(run.slot, zone, options.now)} ${outcomeWord(run)}`)
      .join('; ')}`,
    blockKitLimits.fallbackText,
  );
  return checked({ text, blocks });
}

/** One run: when and how it ended, the window, its top 3, who entered and left. */
export function runLines(run: DigestRun, digest: Pick<Digest, 'schedule' | 'top'>, now: Date) {
  const zone = digest.schedule.zone;
  const lines = [`*${zonedTime(run.slot, zone, now)}* · ${outcomeLine(run, digest.top)}`];
  if (run.window !== undefined) {
    lines.push(`Covered ${formatWindow({ ...run.window, timezone: zone }, now)}`);
  }
  if (run.entries.length > 0) lines.push(`Top 3: ${topThree(run)}`);
  if (run.entered.length > 0) {
    lines.push(`Entered the top ${digest.top}: ${handles(run.entered)}`);
  }
  if (run.left.length > 0) lines.push(`Left the top ${digest.top}: ${handles(run.left)}`);
  return lines.join('\n');
}

function outcomeWord(run: DigestRun): string {
  return run.outcome === 'posted' ? 'posted' : 'not posted';
}

function outcomeLine(run: DigestRun, top: number): string {
  switch (run.outcome) {
    case 'posted':
      return 'posted';
    case 'skipped':
      return `not posted: ${escapeMrkdwn(skipWords(run.skipReason ?? { kind: 'missed' }, top))}`;
    case 'failed':
      return `not posted, failed: ${escapeMrkdwn(failureWords(run.errorCode ?? 'unknown', run.errorDetail))}`;
  }
}

/** "@alice (120 mentions), @bob, @carol". */
function topThree(run: DigestRun): string {
  return run.entries
    .slice(0, 3)
    .map((entry) => `${handle(entry.handle)}${figure(entry, run)}`)
    .join(', ');
}

function figure(entry: DigestRunEntry, run: DigestRun): string {
  if (entry.value === undefined || run.metric === undefined) return '';
  return ` (${metricFigure(entry.value, run.metric)})`;
}

function handles(names: readonly string[]): string {
  const named = names.slice(0, movesNamed).map(handle).join(', ');
  const more = names.length - movesNamed;
  return more > 0 ? `${named} and ${more} more` : named;
}

function handle(name: string): string {
  return `@${escapeMrkdwn(bareHandle(name))}`;
}
