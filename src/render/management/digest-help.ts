/**
 * How to create and manage digests, for `digest help` and a bare `digest`.
 * Every schedule and window form the digest grammar reads, in one message.
 */
import type { KnownBlock } from '@slack/types';
import type { SlackMessage } from '../../model/message.ts';
import { section } from '../blocks.ts';
import { monthlyWindowRules } from '../digests/schedule.ts';
import { checked } from '../limits.ts';
import { commandMrkdwn, exampleLines } from '../lookups/help.ts';

export interface DigestHelpOptions {
  readonly command?: string;
}

/** `/influencers digest` or `digest help`: how to create and manage digests. */
export function renderDigestHelp(options: DigestHelpOptions = {}): SlackMessage {
  const cmd = commandMrkdwn(options.command);
  const examples = exampleLines(cmd, [
    'digest #hcsm every monday at 9am',
    'digest #bcsm, group:Oncology weekdays at 8:30',
    'digest #hcsm every monday at 9am last week doctors to me',
    'digest "patient safety" every month on the 1st at 10:00 in Europe/London',
    'digest #hcsm cron "0 9 * * 1"',
  ]);
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Scheduled digests' } },
    section(
      'A digest posts the top influencers of your databases in this channel on a schedule, ' +
        'with how the ranking moved since the previous run.',
    ),
    section(`*Create one*\n${examples}`),
    section(
      '*Schedule*: `every day at 9am`, `every morning at 8`, `every monday at 9am`, ' +
        '`mondays and thursdays at 17:30`, `every mon, wed and fri at 17:30`, `weekdays at 8:30`, ' +
        '`weekends at 10`, `every other monday`, `every 2 weeks on friday`, `every month on the 1st ' +
        'at 10:00`, `on the 1st and 15th`, `on the first monday of each quarter`, `on the last day ' +
        'of every month at 17:00`, `every 6 hours`, or `cron "<five fields>"`. Without a time it runs at 09:00, ' +
        'and a part of the day at its start (`every friday afternoon` at 12:00; morning 06:00, ' +
        'evening 18:00); a ' +
        'bare hour is on the 24-hour clock (`at 17`). The 29th to 31st are skipped in months ' +
        'without them: use `on the last day of every month` for month ends. At most once an hour.\n' +
        '*Window*: by default the time since the previous run, so posts tile time (the previous ' +
        'day for daily, 7 days for weekly, Friday to Monday for weekdays on Monday), or ' +
        '`last 24 hours`, `past 7 days`, `last 2 weeks` back from each run, or `last week`, ' +
        '`last month`, `last quarter` as whole calendar periods. ' +
        `${monthlyWindowRules}\n` +
        '*Time zone*: yours from your Slack profile, or `in Europe/London`. Runs keep their local ' +
        'time across daylight-saving changes.\n' +
        '*How many*: `top 20`, from 1 to 50 (default 10).\n' +
        '*When it posts*: every run, or `only when changed` (when the top N changes, in who or ' +
        'in order) or `only new` (when someone enters the top N); runs that do not post are ' +
        'listed as skipped.\n' +
        '*Canvas*: `canvas` keeps a canvas in the channel with the ranking and its history, ' +
        'rewritten after each post.\n' +
        '*Who*: `doctors`, `only patients`, `no pharma`, `by followers`, among the top 500, as ' +
        'lookups do. *Where*: this channel, or `to me` for your DM (or type the command in my DM).',
    ),
    section(
      '*Manage*\n' +
        `• \`${cmd} digests\`: this channel's digests, with buttons\n` +
        `• \`${cmd} digest pause <id>\`, \`resume <id>\`, \`run <id>\`, \`remove <id>\`\n` +
        `• \`${cmd} digest history <id>\`: its last 12 runs, their top 3 and who came and went\n` +
        `• \`${cmd} digest edit <id> <what changes>\`: a schedule or a time, a window, top N, ` +
        '`by <metric>`, `in <zone>`, `with table` or `with chart`, `only when changed`, ' +
        '`canvas on|off`; or the ' +
        'Edit button\n' +
        'Only the creator of a digest or a workspace admin can change it.',
    ),
    section(
      `*Watch*: \`${cmd} watch #hcsm top 10\` posts here when someone new enters the top 10, ` +
        'naming the newcomers first; it checks every hour, or on a schedule (`daily at 9am`). A ' +
        'watch is a digest with `only new`: listed, edited, paused and removed like one.',
    ),
  ];
  return checked({
    text: `Scheduled digests: for example ${cmd} digest #hcsm every monday at 9am`,
    blocks,
  });
}
