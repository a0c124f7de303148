/**
 * A conference's channel canvas: the congress's standing report.
 * It is rewritten after each day's recap and after the final one, from the same building blocks
 * as a digest's canvas (canvas.ts).
 *
 * Decisions:
 * - No leading `# ` heading (the canvas shows its title as one); sections are `##`.
 * - The congress's top N so far is one table of at most 10 rows and 6 columns; each day's top 3
 *   is a table of at most 10 days (a month-long event has several), newest day first.
 * - The watchlist over the days is a list, newest day first: twenty accounts would not fit a
 *   table of ten rows, nor thirty days one of six columns.
 * - At most 100 KB: the oldest days go first, and the canvas says how many it left out.
 */
import { DateTime } from 'luxon';
import type { ConferenceReport } from '../../digests/conferences/outlet.ts';
import type { CanvasDocument, CanvasProblem } from '../../model/canvas.ts';
import type { Conference, DayResult, WatchedRank } from '../../model/conference.ts';
import type { SlackMessage } from '../../model/message.ts';
import { defaultMetric } from '../../model/metrics.ts';
import { zoneFor } from '../../time/zones.ts';
import { daysWords, dayWords, zoneWords } from '../conferences/conference.ts';
import { cleanText, compactNumber, escapeMrkdwn, formatDatabases, truncate } from '../format.ts';
import { metricHeading, metricValue } from '../lookups/metric-words.ts';
import {
  type CanvasRow,
  canvasChannelMention,
  canvasHandle,
  canvasMaxBytes,
  canvasTableMaxRows,
  canvasText,
  canvasUserMention,
  rankingTable,
  tableRow,
} from './canvas.ts';
import { canvasProblemNotice, canvasWords } from './digest-canvas.ts';

/** The canvas's title, which Slack shows as its heading and its tab's name. */
export function conferenceCanvasTitle(
  conference: Pick<Conference, 'databases' | 'firstDay' | 'lastDay' | 'zone'>,
): string {
  return truncate(
    `${cleanText(formatDatabases(conference.databases))} · ${daysWords(conference)}`,
    120,
  );
}

const dayCount = (conference: Conference) =>
  Math.round(
    DateTime.fromISO(conference.lastDay).diff(DateTime.fromISO(conference.firstDay), 'days').days,
  ) + 1;

const dayNumberOf = (conference: Conference, day: string) =>
  Math.round(DateTime.fromISO(day).diff(DateTime.fromISO(conference.firstDay), 'days').days) + 1;

const place = (rank: number | undefined) =>
  rank === undefined ? 'not in the top 500' : `#${rank}`;

/** "Day 3 of 5 · Sun May 31". */
function dayLabel(conference: Conference, day: string): string {
  return `Day ${dayNumberOf(conference, day)} of ${dayCount(conference)} · ${dayWords(day, conference.zone)}`;
}

function aboutSection(conference: Conference, report: ConferenceReport): string {
  const zone = zoneWords(conference.zone, report.through);
  const last = report.days.at(-1);
  const status = report.final
    ? report.stoppedEarly
      ? 'Stopped before its last day: this is the final report.'
      : 'The congress is over: this is the final report.'
    : last === undefined
      ? 'No day is over yet.'
      : `${dayLabel(conference, last.day)} is over; the next day's recap rewrites this canvas.`;
  const watch =
    conference.watch.length === 0
      ? ''
      : ` · watching ${conference.watch.map((name) => canvasHandle(name)).join(' ')}`;
  return [
    `**${canvasText(formatDatabases(conference.databases), 200)}: ${canvasText(daysWords(conference), 40)}, ${dayCount(conference)} ${dayCount(conference) === 1 ? 'day' : 'days'} in ${canvasText(conference.zone, 60)} (${canvasText(zone, 60)} time)**`,
    '',
    status,
    `Leaderboard pinned in ${canvasChannelMention(conference.channelId)}, started by ${canvasUserMention(conference.creatorId)} · top ${conference.top}${watch} · conference ${canvasText(conference.id, 20)}`,
  ].join('\n');
}

function topSection(conference: Conference, report: ConferenceReport): string {
  const luxonZone = zoneFor(conference.zone);
  const from = DateTime.fromISO(conference.firstDay, { zone: luxonZone }).toFormat(
    'ccc LLL d HH:mm',
  );
  const through = DateTime.fromJSDate(report.through, { zone: luxonZone }).toFormat(
    'ccc LLL d HH:mm',
  );
  const zone = zoneWords(conference.zone, report.through);
  const heading = report.final
    ? `## Top ${conference.top} of the congress`
    : `## Top ${conference.top} of the congress so far`;
  const rows: CanvasRow[] = report.result.influencers
    .slice(0, Math.min(conference.top, canvasTableMaxRows))
    .map((influencer) => {
      const value = metricValue(influencer, defaultMetric);
      return {
        rank: influencer.rank,
        handle: influencer.screenName,
        ...(influencer.displayName === undefined ? {} : { name: influencer.displayName }),
        values: [value === undefined ? undefined : compactNumber(value)],
      };
    });
  const more =
    conference.top > canvasTableMaxRows && report.result.influencers.length > canvasTableMaxRows
      ? `\n\nThe first ${canvasTableMaxRows} of the top ${conference.top}; the final recap in the leaderboard's thread lists them all.`
      : '';
  const table =
    rows.length === 0
      ? 'No one ranked yet.'
      : rankingTable([metricHeading(defaultMetric)], rows) + more;
  return `${heading}\n\nFrom ${from} to ${canvasText(through, 40)} (${canvasText(zone, 60)}).\n\n${table}`;
}

/** Each day's top 3 as tables of at most 10 days, newest first. */
function daysSection(conference: Conference, days: readonly DayResult[]): string {
  if (days.length === 0) return "## Each day's top 3\n\nNo day is over yet.";
  const head = ['Day', '1st', '2nd', '3rd'];
  const tables: string[] = [];
  for (let at = 0; at < days.length; at += canvasTableMaxRows) {
    const lines = [tableRow(head), tableRow(head.map(() => '---'))];
    for (const day of days.slice(at, at + canvasTableMaxRows)) {
      const top = [0, 1, 2].map((i) => {
        const person = day.top[i];
        return person === undefined ? '–' : canvasHandle(person.screenName);
      });
      lines.push(tableRow([canvasText(dayLabel(conference, day.day), 60), ...top]));
    }
    tables.push(lines.join('\n'));
  }
  return `## Each day's top 3\n\n${tables.join('\n\n')}`;
}

/** One line per watched account: the congress's place, then each day's, newest first. */
function watchSection(
  watch: readonly WatchedRank[],
  days: readonly DayResult[],
  conference: Conference,
): string | undefined {
  if (watch.length === 0) return undefined;
  const lines = watch.map((account) => {
    const key = account.screenName.toLowerCase();
    const perDay = days.map((day) => {
      const rank = day.watch.find((each) => each.screenName.toLowerCase() === key)?.rank;
      return `Day ${dayNumberOf(conference, day.day)} ${place(rank)}`;
    });
    return `- ${canvasHandle(account.screenName)}: congress ${place(account.rank)}${perDay.length === 0 ? '' : ` · ${perDay.join(' · ')}`}`;
  });
  return `## Watchlist\n\n${lines.join('\n')}`;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The canvas after a day's recap or the final one, at most `maxBytes` (UTF-8): what does not fit
 * is the oldest days, dropped first and counted in a line that says so.
 */
export function renderConferenceCanvas(
  conference: Conference,
  report: ConferenceReport,
  now: Date,
  options: { readonly maxBytes?: number } = {},
): CanvasDocument {
  const maxBytes = options.maxBytes ?? canvasMaxBytes;
  const newestFirst = [...report.days].reverse();
  const updated = DateTime.fromJSDate(now, { zone: zoneFor(conference.zone) }).toFormat(
    'LLL d, yyyy HH:mm ZZZZ',
  );
  const document = (kept: number) => {
    const days = newestFirst.slice(0, kept);
    const dropped = newestFirst.length - kept;
    const note =
      dropped === 0
        ? []
        : [
            `${dropped} earlier ${dropped === 1 ? 'day' : 'days'} left out to keep this canvas under ${Math.floor(maxBytes / 1024)} KB.`,
          ];
    const watch = watchSection(report.watch, days, conference);
    return `${[
      aboutSection(conference, report),
      topSection(conference, report),
      daysSection(conference, days),
      ...note,
      ...(watch === undefined ? [] : [watch]),
      `---\nRewritten after each day's recap and the final one; last written ${canvasText(updated, 60)}.`,
    ].join('\n\n')}\n`;
  };
  let kept = newestFirst.length;
  let markdown = document(kept);
  while (bytes(markdown) > maxBytes && kept > 0) {
    kept -= 1;
    markdown = document(kept);
  }
  return { title: conferenceCanvasTitle(conference), markdown };
}

/** The conference's canvas in words for the list and the confirmation; undefined when none. */
export function conferenceCanvasWords(conference: Pick<Conference, 'canvas'>): string | undefined {
  return canvasWords(conference.canvas, {
    first: "written once a day's recap has posted",
    each: "after each day's recap",
  });
}

/** The DM to a conference's creator the first time its canvas fails for `problem`. */
export function renderConferenceCanvasNotice(
  conference: Conference,
  problem: CanvasProblem,
  options: { readonly command?: string } = {},
): SlackMessage {
  return canvasProblemNotice(
    {
      noun: 'conference',
      id: conference.id,
      subject: `${escapeMrkdwn(formatDatabases(conference.databases))}, ${daysWords(conference)}`,
      goesOn: 'The leaderboard and its recaps still post.',
    },
    problem,
    options.command,
  );
}
