/**
 * The usage message (`help`), and how every message names the command and shows its examples.
 * Also the hints for a digest command typed where a lookup was expected.
 */
import type { KnownBlock } from '@slack/types';
import { digestVerbs, slashCommand } from '../../model/commands.ts';
import type { SlackMessage } from '../../model/message.ts';
import { section } from '../blocks.ts';
import { cleanText, escapeMrkdwn, truncate } from '../format.ts';
import { checked } from '../limits.ts';

/**
 * Lookups as a person types them after the command (or in a DM). Each is within the parser's
 * grammar, so the parser's tests can feed these very strings and expect a request.
 */
export const helpExamples = [
  '#hcsm last week',
  '"breast cancer", #bcsm since Oct 1 top 20',
  'group:Oncology yesterday in Europe/London',
  '#pharma past 48 hours',
  '#lcsm from 2026-09-01 to 2026-09-08 tz Asia/Tokyo',
  '4711 last month limit 5',
  '#hcsm and #bcsm Oct 1 - Oct 31 vs previous period by mentions',
] as const;

export interface HelpOptions {
  /** The slash command as configured in the manifest. Default `/influencers`. */
  readonly command?: string;
  /**
   * A line shown first (mrkdwn, already escaped), such as {@link digestVerbHint}'s: it also becomes
   * the notification text, since it is what the person needs to read.
   */
  readonly hint?: string;
}

/** The usage message: for `help`, empty text, a greeting, or an unknown verb. */
export function renderHelp(options: HelpOptions = {}): SlackMessage {
  const plainCommand = commandLabel(options.command);
  const command = escapeMrkdwn(plainCommand);
  const hint = options.hint === undefined ? '' : truncate(options.hint, 1000);
  const blocks: KnownBlock[] = [
    ...(hint === '' ? [] : [section(`:bulb: ${hint}`)]),
    { type: 'header', text: { type: 'plain_text', text: `How to use ${plainCommand}` } },
    section(
      'Ask who drove a health conversation: name the databases and a time window, and optionally ' +
        'a time zone and how many people to list. Answers are visible only to you, with a button ' +
        'to share them in the channel.',
    ),
    section(`*Examples*\n${exampleLines(command, helpExamples)}`),
    section(grammarSummary),
    section(dmNote(command)),
    section(moreCommands(command)),
  ];
  return checked({
    text:
      hint === ''
        ? `How to use ${command}: for example ${command} ${escapeMrkdwn(helpExamples[0])}`
        : hint,
    blocks,
  });
}

/**
 * The hint for a digest verb typed without `digest` (`/influencers pause 3`): the command it most
 * likely meant, as mrkdwn. Verbs that act on one digest keep what followed them (or ask for an id);
 * the others (`list`, `status`, `settings`…) point at the list of this channel's digests.
 */
export function digestVerbHint(verb: string, rest: string, command?: string): string {
  const plainCommand = commandLabel(command);
  const action = digestVerbs.get(verb.toLowerCase());
  const target = truncate(cleanText(rest), 200);
  if (action === undefined || action === 'list' || action === 'create') {
    if (action === 'create') {
      const example = target === '' ? '#hcsm every monday at 9am' : target;
      return (
        `Did you mean \`${escapeMrkdwn(`${plainCommand} digest ${example}`)}\`? ` +
        'Digest commands start with `digest`.'
      );
    }
    return (
      `Did you mean \`${escapeMrkdwn(`${plainCommand} digests`)}\`? It lists this channel's ` +
      'digests; digest commands start with `digest`.'
    );
  }
  const typed = `${plainCommand} digest ${action} ${target === '' ? '<id>' : target}`;
  return (
    `Did you mean \`${escapeMrkdwn(typed)}\`? Digest commands start with \`digest\`` +
    (target === ''
      ? `; \`${escapeMrkdwn(`${plainCommand} digests`)}\` lists this channel's digests with their ids.`
      : '.')
  );
}

/**
 * The command as configured, cleaned and bounded (not yet escaped); `slashCommand`
 * when none is configured.
 */
export function commandLabel(command: string | undefined): string {
  const clean = truncate(cleanText(command ?? ''), 32);
  return clean.length > 0 ? clean : slashCommand;
}

/**
 * Examples as bullet lines of code a person can copy as they are: "• `/influencers #hcsm last
 * week`". `command` is already mrkdwn ({@link commandMrkdwn}).
 */
export function exampleLines(command: string, examples: readonly string[]): string {
  return examples.map((example) => `• \`${command} ${escapeMrkdwn(example)}\``).join('\n');
}

/** {@link commandLabel} for mrkdwn, where most messages name the command. */
export function commandMrkdwn(command: string | undefined): string {
  return escapeMrkdwn(commandLabel(command));
}

/** The grammar in a few lines; shared with the Home tab. */
export const grammarSummary =
  '*Databases*: hashtags `#hcsm`, phrases in quotes `"patient safety"`, numeric ids `4711`, ' +
  'groups `group:Oncology` or `group:"Rare Diseases"`; separate several with commas or `and` ' +
  '(up to 10).\n' +
  '*Window*: `last week`, `yesterday`, `this month`, `last quarter`, `past 48 hours`, `10d`, ' +
  '`since Oct 1`, `from 2026-09-01 to 2026-09-08`, `Oct 1 - Oct 31`, `today 8:00-12:00`, ' +
  '`this morning`, `last night`, `2026-W46`, `H1 2026`, `mtd`, `the week before last`. A range ' +
  'that ends on a date includes that whole day; an end with a time stops at that time. With no ' +
  'window you get the last 7 days.\n' +
  '*Compare and rank*: `vs previous period`, `vs last year`, `vs Q2`; `by mentions`, ' +
  '`ranked by reach`, `by HSG score`.\n' +
  '*Show as*: `table` (the whole ranking), `chart` or `chart categories`; `export` (or `csv`) ' +
  'for a CSV file.\n' +
  '*Time zone*: yours from your Slack profile, or `in Europe/London`, `tz America/New_York`, ' +
  '`tz:UTC`, a place (`in Boston`, `in India`) or `in EST`.\n' +
  '*How many*: `top 20` or `limit 20`, from 1 to 100 (default 10); over 10 comes as a table, ' +
  'and an export holds the whole ranking (up to 500, or `top N`).';

/** The other commands, so `help` names everything the bot does. */
function moreCommands(command: string): string {
  return (
    '*Digests and watches*, created in the channel that should receive them: ' +
    `\`${command} digest #hcsm every monday at 9am\` posts the ranking there on a schedule; ` +
    `\`${command} watch #hcsm top 10\` posts when someone new enters the top 10; ` +
    `\`${command} digests\` lists the channel's digests, with buttons to pause, run, edit or ` +
    `remove them; \`${command} digest help\` says every schedule it reads.\n` +
    '*Conferences*: ' +
    `\`${command} conference #ASCO26 from May 29 to Jun 2 in America/Chicago\` keeps a live ` +
    'leaderboard pinned in the channel for the event, with a recap of each day in its thread; ' +
    `\`${command} conference help\` says the rest.`
  );
}

/**
 * A digest or watch command typed where none can be created (a mention's thread): where to type
 * it, as mrkdwn. `text`: the command as typed.
 */
export function digestInConversationHint(text: string, command?: string): string {
  const plainCommand = commandLabel(command);
  const typed = truncate(cleanText(text), 200);
  const example = /\s/.test(typed) ? typed : 'digest #hcsm every monday at 9am';
  return (
    `Digests and watches are created where they post: type ` +
    `\`${escapeMrkdwn(`${plainCommand} ${example}`)}\` in the channel that should receive them, ` +
    'or type it in my DM to get it there. Here I answer lookups, such as `#hcsm last week`.'
  );
}

/**
 * A conference command typed in a DM or a mention: a live leaderboard posts in a channel, so where
 * to type it, as mrkdwn. `text`: the command as typed.
 */
export function conferenceInConversationHint(text: string, command?: string): string {
  const plainCommand = commandLabel(command);
  const typed = truncate(cleanText(text), 200);
  const example = /\s/.test(typed) ? typed : 'conference #ASCO26 from May 29 to Jun 2';
  return (
    'A conference keeps a live leaderboard in a channel: type ' +
    `\`${escapeMrkdwn(`${plainCommand} ${example}`)}\` in the channel that should show it. ` +
    'Here I answer lookups, such as `#hcsm today`.'
  );
}

function dmNote(command: string): string {
  return (
    `*In a direct message* send me the same text without \`${command}\` (for example ` +
    '`#hcsm yesterday`), or just ask (`who drove #hcsm last week?`); or mention me in a channel ' +
    'with that text and I answer in a thread. Type `help` any time to see this again.'
  );
}
