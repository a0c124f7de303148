/**
 * The words of the conference commands, and a conference's lines on the Home tab.
 * The confirmation (the days, the zone, the refresh, the id), the list, the answers to stop, edit
 * and tick, and the help.
 */
import { DateTime } from 'luxon';
import type { Conference } from '../../model/conference.ts';
import type { SlackMessage } from '../../model/message.ts';
import { zoneFor } from '../../time/zones.ts';
import { context, section } from '../blocks.ts';
import { conferenceCanvasWords } from '../canvases/conference-canvas.ts';
import { daysWords, zoneWords } from '../conferences/conference.ts';
import { escapeMrkdwn, formatDatabases, truncateMrkdwn } from '../format.ts';
import { blockKitLimits } from '../limits.ts';
import { channelMention } from '../mentions.ts';

function message(lines: readonly string[]): SlackMessage {
  const text = truncateMrkdwn(lines.join('\n'), blockKitLimits.sectionText);
  return { text, blocks: [section(text)] };
}

const dayCount = (conference: Conference) =>
  Math.round(
    DateTime.fromISO(conference.lastDay).diff(DateTime.fromISO(conference.firstDay), 'days').days,
  ) + 1;

/** `5 days`, `1 whole day`: a one-day conference (`conference #hcsm today`) is one day. */
const daysCounted = (conference: Conference, whole = '') => {
  const count = dayCount(conference);
  return `${count} ${whole}${count === 1 ? 'day' : 'days'}`;
};

/**
 * "the next update 14:45 (Central)", "starts Fri May 29 at 00:00 (Central)", "ended"; with the
 * year when it is not this year.
 */
export function nextUpdateWords(conference: Conference, now: Date): string {
  if (conference.status === 'ended') return 'ended';
  const at = DateTime.fromJSDate(
    new Date(Math.max(now.getTime(), conference.nextRunAt.getTime())),
    {
      zone: zoneFor(conference.zone),
    },
  );
  const zone = zoneWords(conference.zone, at.toJSDate());
  const started = conference.state.messageTs !== undefined;
  const thisYear = DateTime.fromJSDate(now, { zone: zoneFor(conference.zone) }).year;
  const day = at.toFormat(at.year === thisYear ? 'ccc LLL d' : 'ccc LLL d, yyyy');
  return started
    ? `next update ${day} ${at.toFormat('HH:mm')} (${zone})`
    : `starts ${day} at ${at.toFormat('HH:mm')} (${zone})`;
}

function summary(conference: Conference, now: Date): string {
  const watch =
    conference.watch.length === 0
      ? ''
      : ` · watching ${conference.watch.map((name) => `@${escapeMrkdwn(name)}`).join(' ')}`;
  const canvas = conferenceCanvasWords(conference);
  return `${escapeMrkdwn(formatDatabases(conference.databases))} · ${daysWords(conference, now)} (${daysCounted(conference)}, ${escapeMrkdwn(conference.zone)}) · top ${conference.top} · every ${conference.refreshMinutes} minutes${watch}${canvas === undefined ? '' : ` · canvas: ${escapeMrkdwn(canvas)}`}`;
}

export function renderConferenceCreated(
  conference: Conference,
  options: {
    readonly now: Date;
    readonly command: string;
    /** The hashtags the analytics service could not be asked about (it did not answer). */
    readonly unchecked?: readonly string[];
  },
): SlackMessage {
  const unchecked = options.unchecked ?? [];
  return message([
    `:white_check_mark: *Conference ${escapeMrkdwn(conference.id)} created.* A live leaderboard for ${escapeMrkdwn(formatDatabases(conference.databases))} in ${channelMention(conference.channelId, 'this channel')}, pinned and updated in place.`,
    `*Days*: ${daysWords(conference, options.now)}, ${daysCounted(conference, 'whole ')} in ${escapeMrkdwn(conference.zone)} (${zoneWords(conference.zone, options.now)} time)`,
    `*Refresh*: every ${conference.refreshMinutes} minutes · *Top* ${conference.top}${conference.watch.length === 0 ? '' : ` · *Watching* ${conference.watch.map((name) => `@${escapeMrkdwn(name)}`).join(' ')}`}`,
    `*When*: ${nextUpdateWords(conference, options.now)}; each day's recap goes in the leaderboard's thread.`,
    ...(conference.canvas?.enabled === true
      ? [
          "*Canvas*: the channel's standing report of the congress, written after the first day's recap and rewritten after each one and the final recap.",
        ]
      : []),
    ...(unchecked.length === 0
      ? []
      : [
          `:warning: ${escapeMrkdwn(formatDatabases(unchecked))} could not be checked: the analytics service did not answer in time. If ${unchecked.length === 1 ? 'it is' : 'one is'} mistyped, the leaderboard will say so when it is first posted.`,
        ]),
    `Stop it with \`${options.command} conference stop ${escapeMrkdwn(conference.id)}\`.`,
  ]);
}

/**
 * A conference like one already in the channel. When they differ only by their zone, the zone is
 * named: the same days read in another zone are still the same event.
 */
export function renderConferenceDuplicate(
  existing: Conference,
  options: { readonly now: Date; readonly zone?: string },
): SlackMessage {
  const zone =
    options.zone === undefined || options.zone === existing.zone
      ? ''
      : ` in ${escapeMrkdwn(existing.zone)}, not ${escapeMrkdwn(options.zone)} (stop it and start it again to change its zone)`;
  return message([
    `:information_source: Conference ${escapeMrkdwn(existing.id)} already follows these days here${zone}, so no other was created: ${summary(existing, options.now)}.`,
  ]);
}

export function renderConferenceList(
  conferences: readonly Conference[],
  options: { readonly now: Date; readonly channelId: string; readonly command: string },
): SlackMessage {
  const active = conferences.filter((conference) => conference.status === 'active');
  if (active.length === 0) {
    return message([
      `No conference in ${channelMention(options.channelId, 'this channel')}. Start one with \`${options.command} conference #ASCO26 from May 29 to Jun 2 in America/Chicago\`.`,
    ]);
  }
  return message([
    `*Conferences in ${channelMention(options.channelId, 'this channel')}* (${active.length})`,
    ...active.map(
      (conference) =>
        `• \`${escapeMrkdwn(conference.id)}\` ${summary(conference, options.now)} · ${nextUpdateWords(conference, options.now)}`,
    ),
  ]);
}

export type ConferenceActionResult =
  | { readonly kind: 'stopped'; readonly conference: Conference }
  | { readonly kind: 'edited'; readonly conference: Conference }
  | { readonly kind: 'not_found'; readonly id: string }
  | { readonly kind: 'not_allowed'; readonly conference: Conference }
  | { readonly kind: 'ticked'; readonly updated: number };

export function renderConferenceAction(
  result: ConferenceActionResult,
  options: { readonly now: Date; readonly command: string },
): SlackMessage {
  switch (result.kind) {
    case 'stopped':
      return message([
        `:checkered_flag: Conference ${escapeMrkdwn(result.conference.id)} stopped: the final recap goes in the leaderboard's thread and the leaderboard says it is final.`,
      ]);
    case 'edited':
      return message([
        `:white_check_mark: Conference ${escapeMrkdwn(result.conference.id)} updated: ${summary(result.conference, options.now)}.`,
      ]);
    case 'not_found':
      return message([
        `There is no running conference with id “${escapeMrkdwn(result.id)}” here. \`${options.command} conference list\` shows those of this channel.`,
      ]);
    case 'not_allowed':
      return message([
        `Only the conference's creator (<@${result.conference.creatorId}>) or a workspace admin can change it.`,
      ]);
    case 'ticked':
      return message([
        `Ran the conferences due now: ${result.updated} leaderboard${result.updated === 1 ? '' : 's'} brought up to date.`,
      ]);
  }
}

export function renderConferenceHelp(command: string): SlackMessage {
  return message([
    '*Conference mode*: a live leaderboard for an event, pinned in the channel and updated in place, with a recap of each day in its thread.',
    `• \`${command} conference #ASCO26 from May 29 to Jun 2 in America/Chicago\``,
    `• options: \`watch @handle @handle\` (at most 20) · \`top N\` (at most 25) · \`every N minutes\` (at least 5) · who to keep (\`doctors\`, \`excluding orgs\`) · several hashtags (\`#ASCO26 and #ASCO2026\`) · \`canvas\` (a channel canvas rewritten after each day)`,
    `• \`${command} conference list\` · \`${command} conference stop <id>\` · \`${command} conference edit <id> watch @a @b\` · \`${command} conference edit <id> every 10 minutes\` · \`${command} conference edit <id> canvas on|off\``,
  ]);
}

/** The Home tab's section: the workspace's conferences with their next update. */
export function renderConferenceHome(
  conferences: readonly Conference[],
  now: Date,
): SlackMessage['blocks'] {
  if (conferences.length === 0) return [];
  const lines = conferences
    .slice(0, 20)
    .map(
      (conference) =>
        `• \`${escapeMrkdwn(conference.id)}\` ${escapeMrkdwn(formatDatabases(conference.databases))} in ${channelMention(conference.channelId, 'a channel')} · ${daysWords(conference, now)} · ${nextUpdateWords(conference, now)}`,
    );
  return [
    section(
      truncateMrkdwn(
        `*Conferences* (${conferences.length})\n${lines.join('\n')}`,
        blockKitLimits.sectionText,
      ),
    ),
    ...(conferences.length > 20 ? [context(`…and ${conferences.length - 20} more`)] : []),
  ];
}
