/**
 * A conference's messages: its live leaderboard, its recaps, and the DMs to its creator.
 * The leaderboard is edited in place; each day's recap and the final recap go in its thread.
 * Tables and charts are Slack's native blocks; the poster's fallback turns them into text where a
 * workspace refuses them.
 */
import type { KnownBlock } from '@slack/types';
import { DateTime } from 'luxon';
import type { InfluencersResult } from '../../analytics/types.ts';
import type {
  DayRecap,
  FinalRecap,
  Leaderboard,
  UnreconciledPost,
} from '../../digests/conferences/outlet.ts';
import type { ErrorCode } from '../../errors.ts';
import type { Conference, DayResult, WatchedRank } from '../../model/conference.ts';
import type { RankedAccount } from '../../model/digest.ts';
import type { MessageBlock, SlackMessage } from '../../model/message.ts';
import { defaultMetric } from '../../model/metrics.ts';
import { zoneFor } from '../../time/zones.ts';
import { context, section } from '../blocks.ts';
import { failureWords, fixWords } from '../digests/digest-failures.ts';
import {
  escapeMrkdwn,
  formatDatabases,
  neutralizeMrkdwn,
  truncate,
  truncateMrkdwn,
} from '../format.ts';
import { blockKitLimits } from '../limits.ts';
import { answerButtons, header } from '../lookups/answer.ts';
import { maxChartBars, rankingBarChart } from '../lookups/chart.ts';
import { rankingTable } from '../lookups/data-table.ts';
import { moveSymbol, type RankedRow, type Ranking, rankingOf } from '../lookups/ranking.ts';
import { mixMrkdwn } from '../lookups/stakeholder-mix.ts';
import { channelMention } from '../mentions.ts';

/** The most rows a leaderboard or recap lists as text beside its table. */
const listedRows = 10;

/** "Central" for America/Chicago: the zone's generic name, without "Time". */
export function zoneWords(zone: string, at: Date): string {
  if (zone === 'UTC') return 'UTC';
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longGeneric' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value;
    if (parts !== undefined && !/^GMT/.test(parts)) return parts.replace(/ Time$/u, '');
  } catch {
    // An unknown zone name: say the name.
  }
  return zone;
}

/** "Sun May 31". */
export function dayWords(day: string, zone: string): string {
  return DateTime.fromISO(day, { zone: zoneFor(zone) }).toFormat('ccc LLL d');
}

/**
 * "May 29 – Jun 2"; given `now`, with the year when the days are not in this year (in the
 * event's zone): "Jun 4 – Jun 8, 2027", "Dec 30, 2026 – Jan 2, 2027".
 */
export function daysWords(
  conference: Pick<Conference, 'firstDay' | 'lastDay' | 'zone'>,
  now?: Date,
): string {
  const zone = zoneFor(conference.zone);
  const first = DateTime.fromISO(conference.firstDay, { zone });
  const last = DateTime.fromISO(conference.lastDay, { zone });
  const thisYear = now === undefined ? undefined : DateTime.fromJSDate(now, { zone }).year;
  const yearShown = thisYear !== undefined && (first.year !== thisYear || last.year !== thisYear);
  if (!yearShown) {
    if (conference.firstDay === conference.lastDay) return first.toFormat('LLL d');
    return `${first.toFormat('LLL d')} – ${last.toFormat('LLL d')}`;
  }
  if (conference.firstDay === conference.lastDay) return first.toFormat('LLL d, yyyy');
  const from = first.year === last.year ? first.toFormat('LLL d') : first.toFormat('LLL d, yyyy');
  return `${from} – ${last.toFormat('LLL d, yyyy')}`;
}

const asResult = (accounts: readonly RankedAccount[]): InfluencersResult => ({
  influencers: accounts.map(({ screenName, rank }) => ({
    screenName,
    rank,
    stakeholderCategories: [],
    metrics: {},
  })),
});

function rankingFor(
  conference: Conference,
  result: InfluencersResult,
  previous: readonly RankedAccount[] | undefined,
): Ranking {
  return rankingOf(
    result,
    defaultMetric,
    conference.top,
    previous === undefined ? undefined : asResult(previous),
  );
}

function rowLine(row: RankedRow, compared: boolean): string {
  const name = row.name.length > 0 ? ` ${neutralizeMrkdwn(row.name)}` : '';
  const move = compared ? ` ${moveSymbol(row)}` : '';
  return `${row.rank}. @${escapeMrkdwn(row.handle)}${name}${move}`;
}

function listBlock(ranking: Ranking): MessageBlock[] {
  if (ranking.rows.length === 0) return [section('_Nobody ranks yet._')];
  const lines = ranking.rows.slice(0, listedRows).map((row) => rowLine(row, ranking.compared));
  return [section(truncateMrkdwn(lines.join('\n'), blockKitLimits.sectionText))];
}

function tableAndChart(ranking: Ranking, caption: string, title: string): MessageBlock[] {
  if (ranking.rows.length === 0) return [];
  const blocks: MessageBlock[] = [];
  const table = rankingTable(ranking, truncate(caption, blockKitLimits.dataTableCaption), 6_000);
  if (table !== undefined) blocks.push(table.block);
  // The moves are since the previous update, whose figures are not kept: one series only.
  const chart = rankingBarChart({ ...ranking, compared: false }, title);
  if (chart !== undefined) blocks.push(chart);
  return blocks;
}

/** "Watchlist: @a #4 · @b not in the top 500". */
export function watchLine(watch: readonly WatchedRank[]): string | undefined {
  if (watch.length === 0) return undefined;
  const parts = watch.map(
    (each) =>
      `@${escapeMrkdwn(each.screenName)} ${each.rank === undefined ? 'not in the top 500' : `#${each.rank}`}`,
  );
  return `*Watchlist:* ${parts.join(' · ')}`;
}

function mixBlocks(ranking: Ranking): MessageBlock[] {
  const mix = mixMrkdwn(ranking.rows);
  return mix.length === 0 ? [] : [context(truncateMrkdwn(mix, 1000))];
}

function fallback(prefix: string, ranking: Ranking): string {
  const names = ranking.rows
    .slice(0, 5)
    .map((row) => `${row.rank}. @${row.handle}`)
    .join(', ');
  return truncate(`${prefix}: ${names.length > 0 ? names : 'nobody ranks yet'}`, 3000);
}

function timeWords(at: Date, zone: string): string {
  return DateTime.fromJSDate(at, { zone: zoneFor(zone) }).toFormat('HH:mm');
}

/** The live leaderboard: "Day 3 of 5 · Sun May 31 (Central)", today's top N, the watchlist. */
export function renderLeaderboard(conference: Conference, board: Leaderboard): SlackMessage {
  const databases = formatDatabases(conference.databases);
  const ranking = rankingFor(conference, board.result, board.previous);
  const when = `Day ${board.dayNumber} of ${board.dayCount} · ${dayWords(board.day, conference.zone)} (${zoneWords(conference.zone, board.updatedAt)})`;
  const status = board.final
    ? `Final · ${daysWords(conference)} · no further updates`
    : `updated ${timeWords(board.updatedAt, conference.zone)} · every ${conference.refreshMinutes} minutes`;
  const watch = watchLine(board.watch);
  const blocks: MessageBlock[] = [
    header(
      truncate(`${board.final ? 'Final leaderboard' : 'Live leaderboard'} · ${databases}`, 150),
    ),
    context(escapeMrkdwn(`${when} · ${status}`)),
    ...listBlock(ranking),
    ...tableAndChart(
      ranking,
      `Top ${conference.top} for ${databases}, ${dayWords(board.day, conference.zone)}`,
      `Top ${Math.min(maxChartBars, ranking.rows.length)} by mentions · ${dayWords(board.day, conference.zone)}`,
    ),
    ...(watch === undefined ? [] : [section(truncateMrkdwn(watch, blockKitLimits.sectionText))]),
    ...mixBlocks(ranking),
  ];
  return {
    text: fallback(
      `${databases}, day ${board.dayNumber} of ${board.dayCount}${board.final ? ' (final)' : ''}`,
      ranking,
    ),
    blocks,
  };
}

/** A day's final top N against the day before, its newcomers and the watchlist. */
export function renderDayRecap(conference: Conference, recap: DayRecap): SlackMessage {
  const databases = formatDatabases(conference.databases);
  const ranking = rankingFor(conference, recap.result, recap.dayBefore?.top);
  const newcomers =
    recap.dayBefore === undefined ? [] : ranking.rows.filter((row) => row.before === undefined);
  const watch = watchLine(recap.watch);
  const blocks: MessageBlock[] = [
    header(truncate(`Day ${recap.dayNumber} of ${recap.dayCount} recap · ${databases}`, 150)),
    context(
      escapeMrkdwn(
        `${dayWords(recap.day, conference.zone)}, the whole day (${zoneWords(conference.zone, new Date(Date.parse(`${recap.day}T12:00:00Z`)))})${recap.dayBefore === undefined ? '' : ' · moves against the day before'}`,
      ),
    ),
    ...listBlock(ranking),
    ...tableAndChart(
      ranking,
      `Top ${conference.top} for ${databases}, ${dayWords(recap.day, conference.zone)}`,
      `Top ${Math.min(maxChartBars, ranking.rows.length)} by mentions · day ${recap.dayNumber}`,
    ),
  ];
  if (newcomers.length > 0) {
    blocks.push(
      section(
        truncateMrkdwn(
          `*New today:* ${newcomers.map((row) => `@${escapeMrkdwn(row.handle)}`).join(', ')}`,
          blockKitLimits.sectionText,
        ),
      ),
    );
  }
  if (watch !== undefined) blocks.push(section(truncateMrkdwn(watch, blockKitLimits.sectionText)));
  blocks.push(...mixBlocks(ranking));
  return { text: fallback(`${databases}, day ${recap.dayNumber} recap`, ranking), blocks };
}

/** "Day 1 #4 · Day 2 — · Day 3 #1": one watched account over the days. */
function watchOverDays(screenName: string, days: readonly DayResult[]): string {
  const places = days.map((day, index) => {
    const rank = day.watch.find(
      (each) => each.screenName.toLowerCase() === screenName.toLowerCase(),
    )?.rank;
    return `Day ${index + 1} ${rank === undefined ? '—' : `#${rank}`}`;
  });
  return `@${escapeMrkdwn(screenName)}: ${places.join(' · ')}`;
}

function dailyTopTable(conference: Conference, days: readonly DayResult[]): MessageBlock[] {
  if (days.length === 0) return [];
  const cell = (text: string) => ({
    type: 'raw_text' as const,
    text: text.length > 0 ? text : '—',
  });
  const rows = days
    .slice(0, blockKitLimits.dataTableRows - 1)
    .map((day, index) => [
      cell(`Day ${index + 1} · ${dayWords(day.day, conference.zone)}`),
      ...[0, 1, 2].map((at) =>
        cell(day.top[at] === undefined ? '' : `@${day.top[at]?.screenName}`),
      ),
    ]);
  return [
    {
      type: 'data_table',
      caption: 'Each day’s top 3',
      page_size: 10,
      rows: [[cell('Day'), cell('#1'), cell('#2'), cell('#3')], ...rows],
    } as unknown as KnownBlock,
  ];
}

/** The whole congress: its top N, each day's top 3, the watchlist over the days, Export CSV. */
/** The days a conference stopped early covered: "May 29 – May 31", and "Sun May 31 at 14:30". */
function stoppedSpan(
  conference: Conference,
  through: Date,
): { readonly days: string; readonly at: string } {
  // The instant that ends the window belongs to the day before when it is a midnight.
  const last = DateTime.fromMillis(through.getTime() - 1, { zone: zoneFor(conference.zone) });
  const lastDay = last.toISODate() ?? conference.lastDay;
  const stop = DateTime.fromJSDate(through, { zone: zoneFor(conference.zone) });
  return {
    days: daysWords({
      ...conference,
      lastDay: lastDay < conference.firstDay ? conference.firstDay : lastDay,
    }),
    at: `${stop.toFormat('ccc LLL d')} at ${stop.toFormat('HH:mm')}`,
  };
}

export function renderFinalRecap(conference: Conference, recap: FinalRecap): SlackMessage {
  const databases = formatDatabases(conference.databases);
  const ranking = rankingFor(conference, recap.result, undefined);
  // Stopped early, it covers the days up to the stop, not the days planned.
  const span = recap.stoppedEarly ? stoppedSpan(conference, recap.through) : undefined;
  const days = span?.days ?? daysWords(conference);
  const blocks: MessageBlock[] = [
    header(truncate(`Final recap · ${databases}`, 150)),
    context(
      escapeMrkdwn(
        `${days} (${zoneWords(conference.zone, new Date(Date.parse(`${conference.firstDay}T12:00:00Z`)))})${span === undefined ? ' · the whole congress' : ` · stopped before its last day, ${span.at}: the congress up to then`}`,
      ),
    ),
    ...listBlock(ranking),
    ...tableAndChart(
      ranking,
      `Top ${conference.top} for ${databases}, ${days}`,
      `Top ${Math.min(maxChartBars, ranking.rows.length)} by mentions · the congress`,
    ),
    ...dailyTopTable(conference, recap.days),
  ];
  if (conference.watch.length > 0) {
    const lines = conference.watch.map((name) => watchOverDays(name, recap.days));
    const whole = watchLine(recap.watch);
    blocks.push(
      section(
        truncateMrkdwn(
          `*Watchlist over the days*\n${lines.join('\n')}${whole === undefined ? '' : `\n${whole.replace('*Watchlist:*', '*Whole congress:*')}`}`,
          blockKitLimits.sectionText,
        ),
      ),
    );
  }
  blocks.push(...mixBlocks(ranking));
  const first = DateTime.fromISO(conference.firstDay, { zone: zoneFor(conference.zone) }).startOf(
    'day',
  );
  const last = DateTime.fromISO(conference.lastDay, { zone: zoneFor(conference.zone) })
    .plus({ days: 1 })
    .startOf('day');
  blocks.push(
    ...answerButtons(
      {
        databases: conference.databases,
        start: first.toISO({ suppressMilliseconds: true }) ?? '',
        end: last.toISO({ suppressMilliseconds: true }) ?? '',
        timezone: conference.zone,
        top: Math.min(50, conference.top),
        ...(conference.stakeholders === undefined ? {} : { stakeholders: conference.stakeholders }),
      },
      { actions: true },
      { compare: false, table: false, chart: false, export: true },
    ),
  );
  return { text: fallback(`${databases}, final recap`, ranking), blocks };
}

export function renderUnpinned(
  _conference: Conference,
  reason: 'refused' | 'rate_limited' = 'refused',
): SlackMessage {
  const why =
    reason === 'refused'
      ? 'the channel has too many pins, this message cannot be pinned, or the app was installed without the pins:write permission'
      : 'Slack kept refusing more pins for now, past an hour of trying';
  const text = `I could not pin this leaderboard (${why}); it still updates here. Pin it by hand to keep it at hand.`;
  return { text, blocks: [context(escapeMrkdwn(text))] };
}

const unreconciledNames: Record<UnreconciledPost['kind'], string> = {
  leaderboard: 'its leaderboard',
  final: 'its final recap',
  'pin-note': 'the note that its leaderboard could not be pinned',
  recap: 'a day’s recap',
};

/**
 * The DM to the creator about a post an instance that stopped left unconfirmed, when the channel's
 * history could not say whether it is there: which post, so they can look (it is never sent twice).
 */
export function renderConferenceUnreconciled(
  conference: Conference,
  post: UnreconciledPost,
): SlackMessage {
  const what =
    post.kind === 'recap'
      ? `the day ${post.dayNumber} of ${post.dayCount} recap`
      : unreconciledNames[post.kind];
  const text = `A post of your conference ${escapeMrkdwn(conference.id)} in ${channelMention(conference.channelId, 'its channel')}, ${what}, may not have reached it: the app stopped before Slack confirmed it, and I could not look for it in the channel. Please look there: it is not sent again, so that it is never posted twice.`;
  return {
    text: truncate(text, 3000),
    blocks: [section(truncateMrkdwn(text, blockKitLimits.sectionText))],
  };
}

/**
 * What the creator can do before starting the conference again: a digest's fix, in a
 * conference's words where the digest's speak of removing and creating a digest.
 */
function conferenceFixWords(code: ErrorCode | 'unknown', detail: string | undefined) {
  switch (code) {
    case 'channel_unreachable':
      if (detail === 'archived') return 'Unarchive the channel (or choose another channel)';
      break;
    case 'access_denied':
    case 'unknown_database':
      return 'Check its hashtags (leave out the one that is gone)';
    case 'bad_request':
      return 'Check its hashtags and days';
    default:
      break;
  }
  return fixWords({ code, ...(detail === undefined ? {} : { detail }) }, undefined);
}

/** The DM to the creator when a failure no retry can fix ended the conference. */
export function renderConferenceEnded(
  conference: Conference,
  failure: { readonly code: string; readonly detail?: string },
): SlackMessage {
  const code = failure.code as ErrorCode | 'unknown';
  const why = failureWords(code, failure.detail);
  const fix = conferenceFixWords(code, failure.detail);
  const text = `Your conference leaderboard for ${formatDatabases(conference.databases)} in ${channelMention(conference.channelId, 'its channel')} (\`${conference.id}\`) has ended: ${why}.${fix === undefined ? '' : ` ${fix}, then start it again with \`/influencers conference …\`.`}`;
  return {
    text: truncate(text, 3000),
    blocks: [section(truncateMrkdwn(text, blockKitLimits.sectionText))],
  };
}

export const conferenceWords = {
  leaderboard: renderLeaderboard,
  dayRecap: renderDayRecap,
  finalRecap: renderFinalRecap,
  unpinned: renderUnpinned,
  unreconciled: renderConferenceUnreconciled,
  ended: renderConferenceEnded,
};
