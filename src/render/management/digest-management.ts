/**
 * The words of the digest commands: a new digest's confirmation, the lists, the short answers.
 * The channel's list and the Home section come with their buttons; the short answers are to
 * pause, resume, remove and run. Pure: the instant to reason from is passed in, and every output
 * is checked against Block Kit's limits.
 */
import type { ActionsBlock, Button, ContextBlock, KnownBlock, SectionBlock } from '@slack/types';
import type { Digest, LastRun, Outage, SkipReason } from '../../model/digest.ts';
import type { DigestRun } from '../../model/digest-run.ts';
import type { SlackMessage } from '../../model/message.ts';
import { context, section } from '../blocks.ts';
import { canvasStateWords } from '../canvases/digest-canvas.ts';
import { type FailureFacts, failureWords, pauseReasonWords } from '../digests/digest-failures.ts';
import { outageWords } from '../digests/digest-outages.ts';
import {
  digestChannel,
  digestNoun,
  digestPerson,
  digestSubject,
  postWhenWords,
  presentationWords,
  runTime,
  scheduleWords,
  zonedTime,
} from '../digests/digest-words.ts';
import {
  describeWindow,
  monthlyWindowRules,
  shortMonthSkipDay,
  shortMonthsNote,
} from '../digests/schedule.ts';
import { cleanText, escapeMrkdwn, formatWindow, truncate, truncateMrkdwn } from '../format.ts';
import { digestActionIds, digestActionsBlockId, digestHomeBlockId } from '../ids.ts';
import {
  assertWithinBlockKitLimits,
  blockKitLimits,
  checkBlockKitLimits,
  checked,
} from '../limits.ts';
import { commandMrkdwn } from '../lookups/help.ts';
import { metricName } from '../lookups/metric-words.ts';
import { bareHandle } from '../lookups/ranking.ts';
import { isSlackId } from '../mentions.ts';
import { unhandled } from '../unhandled.ts';
import { pageButtons, pageOf, pageStarts } from './list-pages.ts';

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
  /** The digest was changed (`digest edit`) rather than created. */
  readonly updated?: boolean;
  /** The analytics service could not be asked about the databases: the confirmation says so. */
  readonly databasesUnchecked?: boolean;
  /** The days over which the service has not ranked the account a new watch follows. */
  readonly accountUnseenDays?: number;
}

/**
 * The ephemeral confirmation of a new digest: what, where, the schedule in words, the next three
 * runs (in the schedule's zone and in each reader's), the window each covers, and how to pause or
 * remove it. Shown at creation so a wrong reading is caught before the first post.
 */
export function renderDigestCreated(digest: Digest, options: DigestCreatedOptions): SlackMessage {
  const zone = digest.schedule.zone;
  const cmd = commandMrkdwn(options.command);
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
  const noun = digestNoun(digest);
  const done = options.updated === true ? 'updated' : 'created';
  const what =
    digest.account !== undefined && digest.postWhen === 'new'
      ? `You will get a DM from me when @${bareHandle(digest.account)} enters or leaves the ${digestSubject(digest, { channel: false })}; \`${cmd} digests\` in that DM lists it.`
      : digest.postWhen === 'new'
        ? `${poster} in ${digestChannel(digest.channelId)} when someone new enters the ${digestSubject(digest, { channel: false })}.`
        : `${poster} the ${digestSubject(digest, { channel: false })} in ${digestChannel(digest.channelId)}.`;
  const blocks: KnownBlock[] = [
    section(`:white_check_mark: *${noun} ${escapeMrkdwn(digest.id)} ${done}.* ${what}`),
    section(
      `*Schedule*: ${escapeMrkdwn(scheduleWords(digest))}\n` +
        `*Each run covers*: ${escapeMrkdwn(describeWindow(digest.window, digest.schedule.cadence, digest.schedule))}` +
        optionalLine('*Posts*', postWhenWords(digest)) +
        optionalLine(
          '*Ranked by*',
          digest.metric === undefined ? undefined : metricName(digest.metric),
        ) +
        optionalLine('*Shown as*', presentationWords(digest.presentation)) +
        optionalLine('*Canvas*', canvasStateWords(digest)),
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
  if (digest.schedule.cadence === 'monthly' && digest.window.kind === 'since-previous-run') {
    notes.push(escapeMrkdwn(monthlyWindowRules));
  }
  if (options.databasesUnchecked === true) {
    notes.push(
      ':warning: The analytics service could not be reached, so its databases could not be checked yet: the first run will say if one is wrong.',
    );
  }
  if (options.accountUnseenDays !== undefined && digest.account !== undefined) {
    notes.push(
      `:warning: The analytics service has not ranked @${escapeMrkdwn(bareHandle(digest.account))} in ${escapeMrkdwn(digest.databases.join(', '))} in the last ${options.accountUnseenDays} days: check the handle. If it is wrong, remove this watch and create it again.`,
    );
  }
  if (notes.length > 0) blocks.push(context(notes.join('\n')));
  blocks.push(
    context(
      `Pause it with \`${cmd} digest pause ${escapeMrkdwn(digest.id)}\`, remove it with \`${cmd} digest remove ${escapeMrkdwn(digest.id)}\`, see this channel's digests with \`${cmd} digests\`.`,
    ),
  );
  const first = options.nextRuns[0];
  const text = truncateMrkdwn(
    `${noun} ${escapeMrkdwn(digest.id)} ${done}: ${digestSubject(digest)}, ${escapeMrkdwn(scheduleWords(digest))}.` +
      (first === undefined ? '' : ` Next run ${zonedTime(first, zone, options.now)}.`),
    blockKitLimits.fallbackText,
  );
  return checked({ text, blocks });
}

/**
 * Which digest a new or `edited` one would repeat, and that nothing was created or changed;
 * `where` it posts, as a mention unless said otherwise (a modal's errors show no mentions).
 */
export function duplicateWords(
  existing: Digest,
  edited?: Pick<Digest, 'id' | 'postWhen'>,
  where = digestChannel(existing.channelId),
): string {
  const noun = digestNoun(existing).toLowerCase();
  const outcome =
    edited === undefined
      ? 'No other was created.'
      : `${digestNoun(edited)} ${escapeMrkdwn(edited.id)} was left as it was.`;
  return `An identical ${noun}, ${escapeMrkdwn(existing.id)}, already posts in ${where}: ${digestSubject(existing, { channel: false })}, ${escapeMrkdwn(scheduleWords(existing))}. ${outcome}`;
}

/**
 * The answer to a new digest identical to one the channel has, or to an edit that would make
 * `edited` so: that one, with its buttons, and that nothing was created or changed.
 */
export function renderDigestDuplicate(
  existing: Digest,
  options: {
    readonly now: Date;
    readonly viewerId: string;
    readonly command?: string;
    readonly edited?: Digest;
  },
): SlackMessage {
  const noun = digestNoun(existing).toLowerCase();
  const { edited } = options;
  const outcome =
    edited === undefined
      ? 'no other was created'
      : `${digestNoun(edited).toLowerCase()} ${escapeMrkdwn(edited.id)} was left as it was`;
  const head = section(
    `:information_source: An identical ${noun} already posts in ${digestChannel(existing.channelId)}, so ${outcome}. Here it is:`,
  );
  const text = truncateMrkdwn(duplicateWords(existing, edited), blockKitLimits.fallbackText);
  return checked({
    text,
    blocks: [head, ...digestBlocks(existing, options, { showChannel: false })],
  });
}

export interface DigestListOptions {
  readonly now: Date;
  /** The channel being listed; digests of other channels are left out. */
  readonly channelId: string;
  /** Who asked: their own digests say "you". */
  readonly viewerId: string;
  readonly command?: string;
  /** The workspace's outage, when its digests are on hold: a line under the heading says so. */
  readonly outage?: Outage;
  /** The page shown, from 0; past the last, the last. */
  readonly page?: number;
  /** The id of a digest whose page is shown (a button under it was pressed), over `page`. */
  readonly holding?: string;
}

/**
 * `/influencers digests`: this channel's digests with their schedule, next run, last run and its
 * outcome, status, and buttons (Run now, Pause or Resume, Remove with a confirmation). Beyond what
 * one message holds they go on further pages, with Previous and Next between them.
 */
export function renderDigestList(
  digests: readonly Digest[],
  options: DigestListOptions,
): SlackMessage {
  const list = listOf(digests, options);
  if (list.kind === 'empty') return list.message;
  const { starts, here } = list;
  const held = here.findIndex((digest) => digest.id === options.holding);
  const page =
    held >= 0 ? pageOf(starts, held) : Math.min(Math.max(0, options.page ?? 0), starts.length - 1);
  return list.page(page, true);
}

/** Every page of the channel's list at once, without page buttons: for the console. */
export function renderDigestListPages(
  digests: readonly Digest[],
  options: Omit<DigestListOptions, 'page' | 'holding'>,
): SlackMessage[] {
  const list = listOf(digests, options);
  if (list.kind === 'empty') return [list.message];
  return list.starts.map((_, page) => list.page(page, false));
}

type ListOf =
  | { readonly kind: 'empty'; readonly message: SlackMessage }
  | {
      readonly kind: 'pages';
      readonly here: readonly Digest[];
      readonly starts: readonly number[];
      readonly page: (page: number, buttons: boolean) => SlackMessage;
    };

function listOf(digests: readonly Digest[], options: DigestListOptions): ListOf {
  const cmd = commandMrkdwn(options.command);
  const here = digests.filter((digest) => digest.channelId === options.channelId);
  if (here.length === 0) {
    return {
      kind: 'empty',
      message: checked({
        text: `No digests in this channel yet. Create one with ${cmd} digest #hcsm every monday at 9am`,
        blocks: [
          section(
            `No digests in ${digestChannel(options.channelId)} yet. Create one by naming the databases and a schedule:\n` +
              `• \`${cmd} digest #hcsm every monday at 9am\`\n` +
              `• \`${cmd} digest #bcsm, group:Oncology weekdays at 8:30\`\n` +
              `Type \`${cmd} digest help\` for every option.`,
          ),
        ],
      }),
    };
  }
  const head = (label: string): KnownBlock[] => {
    const heading = section(
      `*Digests in ${digestChannel(options.channelId)}* (${here.length})${label}`,
    );
    return options.outage === undefined
      ? [heading]
      : [
          heading,
          context(outageLine(options.outage, here[0]?.schedule.zone ?? 'UTC', options.now)),
        ];
  };
  const items = here.map((digest) => digestBlocks(digest, options, { showChannel: false }));
  // The longest label a page could have, so a page found to fit still fits with its own.
  const starts = pageStarts(head(pageLabel(here.length, here.length)), items);
  const text = truncateMrkdwn(
    `${here.length} digest${here.length === 1 ? '' : 's'} in this channel: ${here.map((d) => escapeMrkdwn(d.id)).join(', ')}`,
    blockKitLimits.fallbackText,
  );
  const page = (index: number, buttons: boolean): SlackMessage => {
    const from = starts[index] ?? 0;
    const until = starts[index + 1] ?? items.length;
    const label = starts.length > 1 ? pageLabel(index + 1, starts.length) : '';
    const blocks = [...head(label), ...items.slice(from, until).flat()];
    if (buttons && starts.length > 1) blocks.push(pageButtons(index, starts.length));
    return checked({ text, blocks });
  };
  return { kind: 'pages', here, starts, page };
}

function pageLabel(page: number, pages: number): string {
  return ` · page ${page} of ${pages}`;
}

export interface DigestHomeOptions {
  readonly now: Date;
  /** The person whose Home it is. */
  readonly viewerId?: string;
  readonly command?: string;
  /** Each digest's latest run from its history, by digest id: its top 3 and newcomers. */
  readonly latestRuns?: ReadonlyMap<string, DigestRun>;
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
  const cmd = commandMrkdwn(options.command);
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
    readonly latestRuns?: ReadonlyMap<string, DigestRun>;
  },
  layout: { readonly showChannel: boolean },
): KnownBlock[] {
  const zone = digest.schedule.zone;
  const lines: string[] = [];
  const status =
    digest.status === 'paused'
      ? ` · :double_vertical_bar: *Paused*${digest.pauseReason ? `: ${escapeMrkdwn(pauseReasonWords(digest.pauseReason))}` : ' by hand'}`
      : '';
  lines.push(
    `*${escapeMrkdwn(digest.id)}* · ${digestSubject(digest, { channel: layout.showChannel })}${status}`,
  );
  lines.push(
    `${escapeMrkdwn(scheduleWords(digest))} · covers ${escapeMrkdwn(describeWindow(digest.window, digest.schedule.cadence, digest.schedule))}${postWhenWords(digest) === undefined ? '' : ` · posts ${postWhenWords(digest)}`}${digest.metric === undefined ? '' : ` · ranked by ${metricName(digest.metric)}`}`,
  );
  if (digest.status === 'active') {
    lines.push(`Next run: ${runTime(digest.nextRunAt, zone, options.now)}`);
  } else {
    lines.push('Next run: none while paused; Resume schedules the next one.');
  }
  lines.push(`Last run: ${lastRunWords(digest.lastRun, zone, options.now, digest.top)}`);
  const canvas = canvasStateWords(digest);
  if (canvas !== undefined) lines.push(`Canvas: ${escapeMrkdwn(canvas)}`);
  const latest = options.latestRuns?.get(digest.id);
  if (latest !== undefined && latest.entries.length > 0) lines.push(latestRunLine(latest, digest));
  lines.push(
    `Created by ${digest.creatorId === options.viewerId ? 'you' : digestPerson(digest.creatorId)}`,
  );
  return [section(truncateMrkdwn(lines.join('\n'), blockKitLimits.sectionText)), buttons(digest)];
}

function lastRunWords(run: LastRun | undefined, zone: string, now: Date, top: number): string {
  if (run === undefined) return 'none yet';
  const when = zonedTime(run.slot, zone, now);
  switch (run.outcome) {
    case 'posted':
      return `${when}, posted`;
    case 'failed':
      return `${when}, failed: ${failureWords(run.errorCode ?? 'unknown', run.errorDetail)}`;
    case 'skipped':
      return `${when}, skipped: ${skipWords(run.skipReason ?? { kind: 'missed' }, top)}`;
    case 'unconfirmed':
      return `${when}, unconfirmed: posting started but was never confirmed, so it may be missing from the channel`;
  }
}

/** "Top 3: @a, @b, @c · new in the top 10: @d": what the latest run found. */
function latestRunLine(run: DigestRun, digest: Pick<Digest, 'top'>): string {
  const handle = (name: string) => `@${escapeMrkdwn(bareHandle(name))}`;
  const top = run.entries
    .slice(0, 3)
    .map((entry) => handle(entry.handle))
    .join(', ');
  const entered = run.entered.slice(0, 5).map(handle).join(', ');
  return `Top 3: ${top}${entered === '' ? '' : ` · new in the top ${digest.top}: ${entered}`}`;
}

/** `\n*Label*: words`, or nothing without words. */
function optionalLine(label: string, words: string | undefined): string {
  return words === undefined ? '' : `\n${label}: ${escapeMrkdwn(words)}`;
}

function outageLine(outage: Outage, zone: string, now: Date): string {
  return `:double_vertical_bar: Digests in this workspace are on hold since ${zonedTime(outage.since, zone, now)}: ${escapeMrkdwn(outageWords(outage.cause))}. They resume by themselves once it works again; runs missed meanwhile show as skipped.`;
}

/** Why a run was not posted, in words: "no change in the top 10 since the previous run". */
export function skipWords(reason: SkipReason, top: number): string {
  switch (reason.kind) {
    case 'missed':
      return 'the app was not running at the time and the slot was too old to post late';
    case 'outage':
      return `${outageWords(reason.cause)} (an outage of the app, not of this digest)`;
    case 'unchanged':
      return `no change in the top ${top} since the previous run`;
    case 'no_newcomer':
      return `no one new entered the top ${top}`;
    case 'first_ranking':
      return `the first ranking was recorded, for the next runs to compare with`;
    case 'account_steady':
      return `the account it watches neither entered nor left the top ${top}`;
    default:
      return unhandled(reason, 'it was not posted');
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
          `Digest ${escapeMrkdwn(id)} (${digestSubject(digest, { channel: false })}) stops and is deleted. This cannot be undone.`,
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
    elements: [
      button('Run now', digestActionIds.runNow, id),
      toggle,
      button('Edit', digestActionIds.edit, id),
      remove,
    ],
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
      readonly failure: FailureFacts;
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
  const cmd = commandMrkdwn(options.command);
  const id = escapeMrkdwn(digest.id);
  const what = `Digest *${id}* (${digestSubject(digest)})`;
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
          text = `:hourglass_flowing_sand: Running ${what} now: it will appear in ${digestChannel(digest.channelId)} shortly.`;
          break;
        case 'posted':
          text = `:white_check_mark: ${what} was posted in ${digestChannel(digest.channelId)}.`;
          break;
        case 'already':
          text = `${what} is being posted right now by its scheduled run, so it was not posted twice.`;
          break;
        case 'unconfirmed':
          text = `:grey_question: Slack did not confirm ${what} in time, so it may or may not be in ${digestChannel(digest.channelId)}. Check the channel; it was not sent again, to avoid a duplicate.`;
          break;
        case 'failed':
          text = `:warning: ${what} could not be posted: ${failureWords(result.failure.code, result.failure.detail)}.`;
          break;
      }
      break;
  }
  const message = truncateMrkdwn(text, blockKitLimits.fallbackText);
  return checked({ text: message, blocks: [section(message)] });
}
