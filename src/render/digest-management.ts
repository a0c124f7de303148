/**
 * Everything a person reads about digests: the confirmation of a new one, the channel's list with
 * its buttons, the digest itself as posted, the pause notice to its creator, the Home section, the
 * help and the short answers to pause, resume, remove and run. Pure: the instant to reason from is
 * passed in, and every output is checked against Block Kit's limits before it is returned.
 */
import type { ActionsBlock, Button, ContextBlock, KnownBlock, SectionBlock } from '@slack/types';
import { DateTime } from 'luxon';
import type { InfluencersQuery, InfluencersResult } from '../analytics/types.ts';
import type { ChannelProblem, ErrorCode } from '../errors.ts';
import type { Cadence, Digest, LastRun } from '../model/digest.ts';
import type { LookupRequest } from '../model/lookup.ts';
import type { SlackMessage } from '../model/message.ts';
import type { RankChanges } from '../model/rank-changes.ts';
import { zoneFor } from '../time/zones.ts';
import { renderAnswer } from './answer.ts';
import { context, section } from './blocks.ts';
import { digestActionIds, digestActionsBlockId, digestHomeBlockId } from './digest-ids.ts';
import {
  cleanText,
  escapeMrkdwn,
  formatDatabases,
  formatWindow,
  neutralizeMrkdwn,
  slackDate,
  truncate,
  truncateMrkdwn,
} from './format.ts';
import { commandLabel } from './help.ts';
import {
  assertWithinBlockKitLimits,
  blockKitLimits,
  checkBlockKitLimits,
  checked,
} from './limits.ts';
import { channelMention, isSlackId, userMention } from './mentions.ts';
import {
  describeSchedule,
  describeWindow,
  shortMonthSkipDay,
  shortMonthsNote,
} from './schedule.ts';
import { unhandled } from './unhandled.ts';

const locale = 'en-US';
/** Database lists in one line are cut here: the full list is in the digest's own posts. */
const maxDatabasesText = 200;
/** Handles per kind of rank change; the rest are counted. */
const maxMovesShown = 10;
const maxHandleLength = 50;

/** A digest's databases, how many people and where, in mrkdwn: "top 10 of #hcsm in <#C1>". */
function subject(digest: Digest, options: { channel?: boolean } = {}): string {
  const databases = neutralizeMrkdwn(truncate(formatDatabases(digest.databases), maxDatabasesText));
  const where = options.channel === false ? '' : ` in ${channel(digest.channelId)}`;
  return `top ${digest.top} of ${databases}${where}`;
}

function channel(id: string): string {
  return channelMention(id, 'an unknown channel');
}

function user(id: string): string {
  return userMention(id, 'someone');
}

/** The schedule in words, zone included: "Mondays at 09:00 Europe/London". */
export function scheduleWords(digest: Pick<Digest, 'schedule'>): string {
  const words = digest.schedule.description ?? describeSchedule(digest.schedule);
  return truncate(cleanText(words), 200);
}

const cadenceWords: Record<Cadence, string> = {
  daily: 'Daily digest',
  weekly: 'Weekly digest',
  monthly: 'Monthly digest',
  custom: 'Digest',
};

/** "Mon Nov 23, 09:00 GMT" in the schedule's zone; the year only when it is not `now`'s. */
function zonedTime(instant: Date, zone: string, now: Date | undefined): string {
  const time = DateTime.fromJSDate(instant, { zone: zoneFor(zone) }).setLocale(locale);
  if (!time.isValid) return escapeMrkdwn(instant.toISOString());
  const thisYear =
    now === undefined ? undefined : DateTime.fromJSDate(now, { zone: zoneFor(zone) }).year;
  const pattern = thisYear === time.year ? 'ccc LLL d, HH:mm ZZZZ' : 'ccc LLL d, yyyy, HH:mm ZZZZ';
  return time.toFormat(pattern);
}

/** The instant in the schedule's zone, then as a date each reader sees in their own zone. */
function runTime(instant: Date, zone: string, now: Date | undefined): string {
  const iso =
    DateTime.fromJSDate(instant, { zone: zoneFor(zone) }).toISO() ?? instant.toISOString();
  return `${zonedTime(instant, zone, now)} (your time: ${slackDate(iso, zone)})`;
}

function command(options: { readonly command?: string }): string {
  return escapeMrkdwn(commandLabel(options.command));
}

export interface DigestCreatedOptions {
  readonly now: Date;
  /** The next slots (three are shown), from the engine's `nextRuns`. */
  readonly nextRuns: readonly Date[];
  /** The window each of those runs covers, in the same order (the engine's `runWindow`). */
  readonly windows: readonly { readonly start: string; readonly end: string }[];
  /** The bot's user id, to say who will post. */
  readonly botUserId?: string;
  /** What the grammar decided for the creator (`DigestCommand.notes`). */
  readonly notes?: readonly string[];
  readonly command?: string;
}

/**
 * The ephemeral confirmation of a new digest: what, where, the schedule in words, the next three
 * runs (in the schedule's zone and in each reader's), the window each covers, and how to pause or
 * remove it. Shown at creation so a wrong reading is caught before the first post.
 */
export function renderDigestCreated(digest: Digest, options: DigestCreatedOptions): SlackMessage {
  const zone = digest.schedule.zone;
  const cmd = command(options);
  const poster = isSlackId(options.botUserId) ? `<@${options.botUserId}> will post` : 'I will post';
  const runs = options.nextRuns.slice(0, 3).map((run, index) => {
    const window = options.windows[index];
    const covers =
      window === undefined
        ? ''
        : `\n    covering ${escapeMrkdwn(
            formatWindow({ start: window.start, end: window.end, timezone: zone }, options.now),
          )}`;
    return `• ${runTime(run, zone, options.now)}${covers}`;
  });
  const blocks: KnownBlock[] = [
    section(
      `:white_check_mark: *Digest ${escapeMrkdwn(digest.id)} created.* ${poster} the ${subject(digest, { channel: false })} in ${channel(digest.channelId)}.`,
    ),
    section(
      `*Schedule*: ${escapeMrkdwn(scheduleWords(digest))}\n` +
        `*Each run covers*: ${escapeMrkdwn(describeWindow(digest.window, digest.schedule.cadence, digest.schedule))}`,
    ),
    section(
      runs.length > 0
        ? `*Next runs*\n${runs.join('\n')}`
        : '*Next runs*: none: this schedule does not run again.',
    ),
  ];
  const notes = (options.notes ?? [])
    .map((note) => escapeMrkdwn(truncate(cleanText(note), 300)))
    .filter((note) => note.length > 0);
  const day = shortMonthSkipDay(digest.schedule.expression);
  if (day !== undefined) notes.push(escapeMrkdwn(shortMonthsNote(day)));
  if (notes.length > 0) blocks.push(context(notes.join('\n')));
  blocks.push(
    context(
      `Pause it with \`${cmd} digest pause ${escapeMrkdwn(digest.id)}\`, remove it with \`${cmd} digest remove ${escapeMrkdwn(digest.id)}\`, see this channel's digests with \`${cmd} digests\`.`,
    ),
  );
  const first = options.nextRuns[0];
  const text = truncateMrkdwn(
    `Digest ${escapeMrkdwn(digest.id)} created: ${subject(digest)}, ${escapeMrkdwn(scheduleWords(digest))}.` +
      (first === undefined ? '' : ` Next run ${zonedTime(first, zone, options.now)}.`),
    blockKitLimits.fallbackText,
  );
  return checked({ text, blocks });
}

export interface DigestListOptions {
  readonly now: Date;
  /** The channel being listed; digests of other channels are left out. */
  readonly channelId: string;
  /** Who asked: their own digests say "you". */
  readonly viewerId: string;
  readonly command?: string;
}

/**
 * `/influencers digests`: this channel's digests with their schedule, next run, last run and its
 * outcome, status, and buttons (Run now, Pause or Resume, Remove with a confirmation). Beyond what
 * one message holds, the rest are listed by id.
 */
export function renderDigestList(
  digests: readonly Digest[],
  options: DigestListOptions,
): SlackMessage {
  const cmd = command(options);
  const here = digests.filter((digest) => digest.channelId === options.channelId);
  if (here.length === 0) {
    return checked({
      text: `No digests in this channel yet. Create one with ${cmd} digest #hcsm every monday at 9am`,
      blocks: [
        section(
          `No digests in ${channel(options.channelId)} yet. Create one by naming the databases and a schedule:\n` +
            `• \`${cmd} digest #hcsm every monday at 9am\`\n` +
            `• \`${cmd} digest #bcsm, group:Oncology weekdays at 8:30 last 24 hours\`\n` +
            `Type \`${cmd} digest help\` for every option.`,
        ),
      ],
    });
  }
  const heading = section(`*Digests in ${channel(options.channelId)}* (${here.length})`);
  const items = here.map((digest) => digestBlocks(digest, options, { showChannel: false }));
  const blocks = fitItems([heading], items, here, blockKitLimits.messageBlocks, 'message');
  const text = truncateMrkdwn(
    `${here.length} digest${here.length === 1 ? '' : 's'} in this channel: ${here.map((d) => escapeMrkdwn(d.id)).join(', ')}`,
    blockKitLimits.fallbackText,
  );
  return checked({ text, blocks });
}

export interface DigestHomeOptions {
  readonly now: Date;
  /** The person whose Home it is. */
  readonly viewerId?: string;
  readonly command?: string;
}

/** Blocks the Home section keeps to, leaving the rest of the Home tab's 100 to the bot's own. */
const homeSectionBlocks = 80;

/**
 * The App Home's "Your digests" section, for `renderHome({ sections })`: the digests the person
 * created, in every channel, with the same buttons as the channel list.
 */
export function renderDigestHomeSection(
  digests: readonly Digest[],
  options: DigestHomeOptions,
): KnownBlock[] {
  const cmd = command(options);
  const heading: SectionBlock = {
    ...section(`*Your digests* (${digests.length})`),
    block_id: digestHomeBlockId,
  };
  if (digests.length === 0) {
    return [
      {
        ...section(
          `*Your digests*\nYou have no digests yet. Create one in any channel, for example \`${cmd} digest #hcsm every monday at 9am\`, and it posts there on its schedule.`,
        ),
        block_id: digestHomeBlockId,
      },
    ];
  }
  const listOptions = { ...options, viewerId: options.viewerId ?? '' };
  const items = digests.map((digest) => digestBlocks(digest, listOptions, { showChannel: true }));
  const blocks = fitItems([heading], items, digests, homeSectionBlocks, 'view');
  assertWithinBlockKitLimits({ blocks }, 'view');
  return blocks;
}

/**
 * The heading, then as many digests as fit in `maxBlocks` (and, for messages, the text budget);
 * the rest are named by id in one line.
 */
function fitItems(
  head: readonly KnownBlock[],
  items: readonly KnownBlock[][],
  digests: readonly Digest[],
  maxBlocks: number,
  kind: 'message' | 'view',
): KnownBlock[] {
  const blocks = [...head];
  let shown = 0;
  for (const item of items) {
    const room = maxBlocks - blocks.length - (shown + 1 < items.length ? 1 : 0);
    if (item.length > room) break;
    const candidate = [...blocks, ...item];
    const rest = items.length - shown - 1;
    const probe = rest > 0 ? [...candidate, moreLine(digests.slice(shown + 1))] : candidate;
    if (checkBlockKitLimits({ text: 'x', blocks: probe }, kind).length > 0) break;
    blocks.push(...item);
    shown++;
  }
  if (shown < items.length) blocks.push(moreLine(digests.slice(shown)));
  return blocks;
}

function moreLine(rest: readonly Digest[]): ContextBlock {
  const ids = rest.map((digest) => escapeMrkdwn(digest.id));
  return context(
    truncateMrkdwn(
      `…and ${rest.length} more not shown here: ${ids.join(', ')}. Manage them with \`digest pause|resume|remove|run <id>\`.`,
      1000,
    ),
  );
}

function digestBlocks(
  digest: Digest,
  options: {
    readonly now: Date;
    readonly viewerId: string;
  },
  layout: { readonly showChannel: boolean },
): KnownBlock[] {
  const zone = digest.schedule.zone;
  const lines: string[] = [];
  const status =
    digest.status === 'paused'
      ? ` · :double_vertical_bar: *Paused*${digest.pausedReason ? `: ${escapeMrkdwn(truncate(cleanText(digest.pausedReason), 300))}` : ' by hand'}`
      : '';
  lines.push(
    `*${escapeMrkdwn(digest.id)}* · ${subject(digest, { channel: layout.showChannel })}${status}`,
  );
  lines.push(
    `${escapeMrkdwn(scheduleWords(digest))} · covers ${escapeMrkdwn(describeWindow(digest.window, digest.schedule.cadence, digest.schedule))}`,
  );
  if (digest.status === 'active') {
    lines.push(`Next run: ${runTime(digest.nextRunAt, zone, options.now)}`);
  } else {
    lines.push('Next run: none while paused; Resume schedules the next one.');
  }
  lines.push(`Last run: ${lastRunWords(digest.lastRun, zone, options.now)}`);
  lines.push(
    `Created by ${digest.creatorId === options.viewerId ? 'you' : user(digest.creatorId)}`,
  );
  return [section(truncateMrkdwn(lines.join('\n'), blockKitLimits.sectionText)), buttons(digest)];
}

function lastRunWords(run: LastRun | undefined, zone: string, now: Date): string {
  if (run === undefined) return 'none yet';
  const when = zonedTime(run.slot, zone, now);
  switch (run.outcome) {
    case 'posted':
      return `${when}, posted`;
    case 'failed':
      return `${when}, failed: ${failureWords(run.errorCode ?? 'unknown')}`;
    case 'skipped':
      return `${when}, skipped: the app was not running at the time and the slot was too old to post late`;
    case 'unconfirmed':
      return `${when}, unconfirmed: posting started but was never confirmed, so it may be missing from the channel`;
  }
}

/** Codes with nothing a person can do about them; the logs say more. */
const unexpectedFailure = 'an unexpected error (the details are in the app logs)';

/** A stored error code in words, short enough for a list line. */
export function failureWords(code: ErrorCode | 'unknown', problem?: ChannelProblem): string {
  switch (code) {
    case 'channel_unreachable':
      return channelProblemWords(problem);
    case 'credentials_rejected':
    case 'unauthorized':
      return "the analytics service rejected this app's credentials; an admin must check them";
    case 'access_denied':
      return "a database in it is not accessible to this app's analytics account";
    case 'unknown_database':
      return 'a database in it no longer exists';
    case 'bad_request':
      return 'the analytics service did not accept its question';
    case 'rate_limited':
      return 'the analytics service was too busy';
    case 'service_unavailable':
      return 'the analytics service was unavailable';
    case 'timeout':
      return 'the analytics service took too long to answer';
    case 'network':
      return 'the analytics service could not be reached';
    case 'invalid_response':
      return 'the analytics service sent an answer this app could not read';
    case 'team_not_allowed':
      return 'this workspace is no longer enabled for the app';
    case 'config_invalid':
      return "Slack or the analytics service refused this app's configuration; an admin must check its tokens";
    case 'parse_error':
    case 'digest_not_found':
    case 'digest_permission_denied':
    case 'unknown':
      return unexpectedFailure;
    default:
      return unhandled(code, unexpectedFailure);
  }
}

function channelProblemWords(problem: ChannelProblem | undefined): string {
  switch (problem) {
    case 'archived':
      return 'the channel was archived';
    case 'not_in_channel':
      return 'I am no longer a member of the channel';
    case 'not_found':
      return 'the channel no longer exists, or I can no longer see it';
    case 'restricted':
      return 'posting in the channel is restricted';
    case 'direct_message':
      return 'I cannot post in that conversation';
    case undefined:
      return 'I could not post in the channel';
    default:
      return unhandled(problem, unexpectedFailure);
  }
}

function buttons(digest: Digest): ActionsBlock {
  const id = digest.id;
  const toggle: Button =
    digest.status === 'paused'
      ? button('Resume', digestActionIds.resume, id)
      : button('Pause', digestActionIds.pause, id);
  const remove: Button = {
    ...button('Remove', digestActionIds.remove, id),
    style: 'danger',
    confirm: {
      title: { type: 'plain_text', text: 'Remove this digest?' },
      text: {
        type: 'mrkdwn',
        text: truncateMrkdwn(
          `Digest ${escapeMrkdwn(id)} (${subject(digest, { channel: false })}) stops and is deleted. This cannot be undone.`,
          300,
        ),
      },
      confirm: { type: 'plain_text', text: 'Remove' },
      deny: { type: 'plain_text', text: 'Keep it' },
      style: 'danger',
    },
  };
  return {
    type: 'actions',
    block_id: digestActionsBlockId(id),
    elements: [button('Run now', digestActionIds.runNow, id), toggle, remove],
  };
}

function button(label: string, actionId: string, value: string): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text: label },
    value,
  };
}

export interface DigestMessageOptions {
  /**
   * The creator's display name for the context line. Without it the line mentions the creator
   * (`<@U…>`), which Slack may notify on every post: pass the name when it is known.
   */
  readonly createdByName?: string;
}

/**
 * The digest as posted in its channel: the same Block Kit answer as a lookup, a context line
 * ("Weekly digest · Mondays at 09:00 Europe/London · created by Jane"), and from the second run on
 * how the ranking moved since the previous run. Its first four parameters are the engine's
 * `RenderDigest`, so it can be injected as `renderDigest` as it is.
 */
export function renderDigestMessage(
  digest: Digest,
  query: InfluencersQuery,
  result: InfluencersResult,
  changes: RankChanges,
  options: DigestMessageOptions = {},
): SlackMessage {
  const request: LookupRequest = {
    databases: query.databases,
    start: query.start,
    end: query.end,
    timezone: query.timezone ?? digest.schedule.zone,
    top: query.limit ?? digest.top,
  };
  const answer = renderAnswer(request, result, { audience: 'channel' });
  const label = cadenceWords[digest.schedule.cadence];
  const name =
    options.createdByName === undefined
      ? ''
      : neutralizeMrkdwn(truncate(options.createdByName, 80));
  const creator = name.length > 0 ? name : user(digest.creatorId);
  const line = context(
    `${label} · ${escapeMrkdwn(scheduleWords(digest))} · created by ${creator} · id ${escapeMrkdwn(digest.id)}`,
  );
  const moves = changesBlock(changes);

  // The answer is [header, window, ...entries, "…and N more"?]; the digest adds two blocks.
  const [header, window, ...rest] = answer.blocks;
  const last = rest.at(-1);
  const more = last?.type === 'context' ? last : undefined;
  const entries = (more === undefined ? rest : rest.slice(0, -1)) as KnownBlock[];
  let hidden = more === undefined ? 0 : moreCount(more);
  const head = [header, window, line].filter((block) => block !== undefined) as KnownBlock[];
  const assemble = (): KnownBlock[] => [
    ...head,
    ...entries,
    ...(hidden > 0 ? [context(`…and ${hidden} more not shown here`)] : []),
    ...(moves === undefined ? [] : [moves]),
  ];
  const text = truncateMrkdwn(`${label}: ${answer.text}`, blockKitLimits.fallbackText);
  // Make room when the answer already filled the message: fold entries two by two, then drop some.
  while (checkBlockKitLimits({ text, blocks: assemble() }).length > 0 && entries.length > 1) {
    const overBlocks = assemble().length > blockKitLimits.messageBlocks;
    const a = entries.at(-2);
    const b = entries.at(-1);
    const joined =
      a?.type === 'section' && b?.type === 'section' && a.text && b.text
        ? `${a.text.text}\n\n${b.text.text}`
        : undefined;
    if (overBlocks && joined !== undefined && joined.length <= blockKitLimits.sectionText) {
      entries.splice(-2, 2, section(joined));
    } else {
      const dropped = entries.pop();
      hidden += dropped?.type === 'section' ? (dropped.text?.text.split('\n\n').length ?? 1) : 1;
    }
  }
  return checked({ text, blocks: assemble() });
}

function moreCount(block: ContextBlock): number {
  const element = block.elements[0];
  const text = element !== undefined && 'text' in element ? element.text : '';
  const match = /…and (\d+) more/.exec(text);
  return match === null ? 0 : Number(match[1]);
}

/** How the ranking moved, compactly; undefined on a digest's first run. */
function changesBlock(changes: RankChanges): SectionBlock | undefined {
  if (changes.firstRun) return undefined;
  const handle = (name: string): string =>
    `@${neutralizeMrkdwn(truncate(cleanText(name).replace(/^@+/u, ''), maxHandleLength))}`;
  const list = <T>(items: readonly T[], word: (item: T) => string): string => {
    const shown = items.slice(0, maxMovesShown).map(word);
    const rest = items.length - shown.length;
    return `${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
  };
  const lines: string[] = [];
  if (changes.newEntrants.length > 0) {
    lines.push(
      `*New*: ${list(changes.newEntrants, (a) => `${handle(a.screenName)} at #${a.rank}`)}`,
    );
  }
  if (changes.movedUp.length > 0) {
    lines.push(
      `*Up*: ${list(changes.movedUp, (m) => `${handle(m.screenName)} +${m.delta} to #${m.rank}`)}`,
    );
  }
  if (changes.movedDown.length > 0) {
    lines.push(
      `*Down*: ${list(changes.movedDown, (m) => `${handle(m.screenName)} −${Math.abs(m.delta)} to #${m.rank}`)}`,
    );
  }
  if (changes.droppedOut.length > 0) {
    lines.push(
      `*Dropped out*: ${list(changes.droppedOut, (a) => `${handle(a.screenName)} (was #${a.rank})`)}`,
    );
  }
  const body =
    lines.length > 0 ? lines.join('\n') : 'No change in the ranking since the previous run.';
  return section(truncateMrkdwn(`*Since the previous run*\n${body}`, blockKitLimits.sectionText));
}

/** Why a digest was paused: the runner's words, or a failure's code (and channel problem). */
export type PauseCause =
  | string
  | { readonly code: ErrorCode | 'unknown'; readonly channelProblem?: ChannelProblem };

export interface DigestPausedOptions {
  readonly botUserId?: string;
  readonly command?: string;
}

/**
 * The direct message to a digest's creator when repeated failures paused it: which digest, why,
 * what to fix and how to resume. Assignable to the engine's `RenderPauseNotice`, which passes the
 * reason in words; given the failure's code instead, it also says what to fix.
 */
export function renderDigestPaused(
  digest: Digest,
  cause?: PauseCause,
  options: DigestPausedOptions = {},
): SlackMessage {
  const cmd = command(options);
  const resume = `\`${cmd} digest resume ${escapeMrkdwn(digest.id)}\``;
  const given = cause ?? digest.pausedReason;
  const why =
    given === undefined
      ? 'its runs kept failing'
      : typeof given === 'string'
        ? escapeMrkdwn(truncate(cleanText(given), 500)) || 'its runs kept failing'
        : failureWords(given.code, given.channelProblem);
  const fix = typeof given === 'object' ? fixWords(given, options.botUserId) : undefined;
  const lines = [
    `:double_vertical_bar: Your digest *${escapeMrkdwn(digest.id)}* (${subject(digest)}, ${escapeMrkdwn(scheduleWords(digest))}) was paused: ${why}.`,
    `${fix === undefined ? 'Once the cause is fixed,' : `${fix}, then`} resume it with ${resume}.`,
  ];
  const blocks: KnownBlock[] = [
    section(truncateMrkdwn(lines.join('\n'), blockKitLimits.sectionText)),
  ];
  blocks.push(context(`Or remove it with \`${cmd} digest remove ${escapeMrkdwn(digest.id)}\`.`));
  const text = truncateMrkdwn(
    `Your digest ${escapeMrkdwn(digest.id)} was paused: ${why}. Resume it with ${cmd} digest resume ${escapeMrkdwn(digest.id)}`,
    blockKitLimits.fallbackText,
  );
  return checked({ text, blocks });
}

function fixWords(
  cause: Exclude<PauseCause, string>,
  botUserId: string | undefined,
): string | undefined {
  const me = userMention(botUserId, 'me');
  switch (cause.code) {
    case 'channel_unreachable':
      switch (cause.channelProblem) {
        case 'archived':
          return 'Unarchive the channel (or remove this digest and create it in another channel)';
        case 'not_in_channel':
        case 'not_found':
          return `Invite ${me} back to the channel with \`/invite\``;
        case 'restricted':
          return 'Ask a channel manager to let me post there';
        default:
          return `Check that the channel exists and that ${me} can post there`;
      }
    case 'access_denied':
    case 'unknown_database':
      return 'Check its databases (remove this digest and create it again without the one that is gone)';
    case 'credentials_rejected':
    case 'unauthorized':
      return "Ask an admin to check this app's analytics credentials";
    default:
      return undefined;
  }
}

export interface DigestHelpOptions {
  readonly command?: string;
}

/** `/influencers digest` or `digest help`: how to create and manage digests. */
export function renderDigestHelp(options: DigestHelpOptions = {}): SlackMessage {
  const plain = commandLabel(options.command);
  const cmd = escapeMrkdwn(plain);
  const examples = [
    'digest #hcsm every monday at 9am',
    'digest #bcsm, group:Oncology weekdays at 8:30 last 24 hours',
    'digest "patient safety" every month on the 1st at 10:00 in Europe/London',
    'digest #hcsm cron "0 9 * * 1"',
  ].map((example) => `• \`${cmd} ${escapeMrkdwn(example)}\``);
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Scheduled digests' } },
    section(
      'A digest posts the top influencers of your databases in this channel on a schedule, ' +
        'with how the ranking moved since the previous run.',
    ),
    section(`*Create one*\n${examples.join('\n')}`),
    section(
      '*Schedule*: `every day at 9am`, `every morning at 8`, `every monday at 9am`, ' +
        '`mondays and thursdays at 17:30`, `every mon, wed and fri at 17:30`, `weekdays at 8:30`, ' +
        '`weekends at 10`, `every month on the 1st at 10:00`, `on the last day of every month at ' +
        '17:00`, `every 6 hours`, or `cron "<five fields>"`. Without a time it runs at 09:00; a ' +
        'bare hour is on the 24-hour clock (`at 17`). The 29th to 31st are skipped in months ' +
        'without them: use `on the last day of every month` for month ends. At most once an hour.\n' +
        '*Window*: by default the time since the previous run (the previous day for daily, 7 days ' +
        'for weekly, the previous calendar month for monthly, every month since the previous run ' +
        'for the 29th to 31st), or `last 24 hours`, `past 7 days`, ' +
        '`last 2 weeks`.\n' +
        '*Time zone*: yours from your Slack profile, or `in Europe/London`. Runs keep their local ' +
        'time across daylight-saving changes.\n' +
        '*How many*: `top 20`, from 1 to 50 (default 10).',
    ),
    section(
      '*Manage*\n' +
        `• \`${cmd} digests\`: this channel's digests, with buttons\n` +
        `• \`${cmd} digest pause <id>\`, \`resume <id>\`, \`run <id>\`, \`remove <id>\`\n` +
        'Only the creator of a digest or a workspace admin can change it.',
    ),
  ];
  return checked({
    text: `Scheduled digests: for example ${cmd} digest #hcsm every monday at 9am`,
    blocks,
  });
}

/** What a pause, resume, remove or run by text or button came to. */
export type DigestActionResult =
  /** `changed: false`: it already was paused (or running), so nothing happened. */
  | { readonly action: 'pause'; readonly digest: Digest; readonly changed?: boolean }
  | { readonly action: 'resume'; readonly digest: Digest; readonly changed?: boolean }
  /** `digest` as it was before removal. */
  | { readonly action: 'remove'; readonly digest: Digest }
  /** `started`: the run is under way and its result will show in the channel. */
  | { readonly action: 'run'; readonly digest: Digest; readonly outcome: 'started' | 'posted' }
  | { readonly action: 'run'; readonly digest: Digest; readonly outcome: 'already' | 'unconfirmed' }
  | {
      readonly action: 'run';
      readonly digest: Digest;
      readonly outcome: 'failed';
      readonly failure: Exclude<PauseCause, string>;
    };

export interface DigestActionOptions {
  readonly now: Date;
  readonly command?: string;
}

/** The short ephemeral answer to an action on a digest. */
export function renderDigestActionResult(
  result: DigestActionResult,
  options: DigestActionOptions,
): SlackMessage {
  const { digest } = result;
  const cmd = command(options);
  const id = escapeMrkdwn(digest.id);
  const what = `Digest *${id}* (${subject(digest)})`;
  let text: string;
  switch (result.action) {
    case 'pause':
      text = `:double_vertical_bar: ${what} ${result.changed === false ? 'was already paused' : 'is paused'}. Resume it with \`${cmd} digest resume ${id}\`.`;
      break;
    case 'resume':
      text = `:arrow_forward: ${what} ${result.changed === false ? 'was already running' : 'is running again'}. Next run: ${runTime(digest.nextRunAt, digest.schedule.zone, options.now)}.`;
      break;
    case 'remove':
      text = `:wastebasket: ${what} was removed. It will not post again.`;
      break;
    case 'run':
      switch (result.outcome) {
        case 'started':
          text = `:hourglass_flowing_sand: Running ${what} now: it will appear in ${channel(digest.channelId)} shortly.`;
          break;
        case 'posted':
          text = `:white_check_mark: ${what} was posted in ${channel(digest.channelId)}.`;
          break;
        case 'already':
          text = `${what} is being posted right now by its scheduled run, so it was not posted twice.`;
          break;
        case 'unconfirmed':
          text = `:grey_question: Slack did not confirm ${what} in time, so it may or may not be in ${channel(digest.channelId)}. Check the channel; it was not sent again, to avoid a duplicate.`;
          break;
        case 'failed':
          text = `:warning: ${what} could not be posted: ${failureWords(result.failure.code, result.failure.channelProblem)}.`;
          break;
      }
      break;
  }
  const message = truncateMrkdwn(text, blockKitLimits.fallbackText);
  return checked({ text: message, blocks: [section(message)] });
}
