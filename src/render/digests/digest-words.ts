/**
 * How every digest message names a digest, so each calls it by the same words.
 * Its subject, channel, creator, schedule and run times, for the confirmation, the list, the post
 * and the notices.
 */
import { DateTime } from 'luxon';
import type { Digest, Presentation } from '../../model/digest.ts';
import { zoneFor } from '../../time/zones.ts';
import {
  cleanText,
  escapeMrkdwn,
  formatDatabases,
  locale,
  neutralizeMrkdwn,
  slackDate,
  truncate,
} from '../format.ts';
import { bareHandle } from '../lookups/ranking.ts';
import { filterWords } from '../lookups/selection.ts';
import { channelMention, userMention } from '../mentions.ts';
import { describeSchedule } from './schedule.ts';

/** Database lists in one line are cut here: the full list is in the digest's own posts. */
const maxDatabasesText = 200;

/**
 * A digest's databases, how many people and where, in mrkdwn: "top 10 of #hcsm in <#C1>". Leave
 * the channel out where the message already names it.
 */
export function digestSubject(digest: Digest, options: { channel?: boolean } = {}): string {
  const databases = neutralizeMrkdwn(truncate(formatDatabases(digest.databases), maxDatabasesText));
  const where = options.channel === false ? '' : ` in ${digestChannel(digest.channelId)}`;
  const chosen = choiceWords(digest);
  return `top ${digest.top} of ${databases}${chosen === undefined ? '' : ` (${chosen})`}${where}`;
}

/**
 * Who a digest keeps and how it ranks them, when chosen here: "Doctors, ranked by followers";
 * undefined for a digest of everyone in the service's order.
 */
export function choiceWords(digest: Pick<Digest, 'stakeholders' | 'orderBy'>): string | undefined {
  const words = [
    ...(digest.stakeholders === undefined ? [] : [filterWords(digest.stakeholders)]),
    ...(digest.orderBy === 'followers' ? ['ranked by followers'] : []),
  ];
  return words.length === 0 ? undefined : words.join(', ');
}

/** Whether a digest goes to its creator's DM with the app (`to me`, or created in that DM). */
export function isPersonal(digest: Pick<Digest, 'channelId'>): boolean {
  return digest.channelId.startsWith('D');
}

/**
 * A digest's channel as a mention; a stored id gone wrong reads as words, not as a broken token.
 * A DM with the app is its creator's, who alone reads about it: "your DM with me".
 */
export function digestChannel(id: string): string {
  if (isPersonal({ channelId: id })) return 'your DM with me';
  return channelMention(id, 'an unknown channel');
}

/** A digest's creator as a mention, for when no display name is at hand. */
export function digestPerson(id: string): string {
  return userMention(id, 'someone');
}

/** How a digest shows its ranking, when not as the list: "a table", "a chart of categories". */
export function presentationWords(presentation: Presentation): string | undefined {
  switch (presentation) {
    case 'list':
      return undefined;
    case 'table':
      return 'a table';
    case 'chart':
      return 'a chart';
    case 'category_chart':
      return 'a chart of categories';
  }
}

/** What people call the digest: a watch posts only when someone new enters its top N. */
export function digestNoun(digest: Pick<Digest, 'postWhen'>): 'Digest' | 'Watch' {
  return digest.postWhen === 'new' ? 'Watch' : 'Digest';
}

/** When a digest posts, when that is not every run: "only when the top 10 changes". */
export function postWhenWords(
  digest: Pick<Digest, 'postWhen' | 'top' | 'account'>,
): string | undefined {
  if (digest.account !== undefined && digest.postWhen === 'new') {
    return `only when @${bareHandle(digest.account)} enters or leaves the top ${digest.top}`;
  }
  switch (digest.postWhen) {
    case 'always':
      return undefined;
    case 'changed':
      return `only when the top ${digest.top} changes (who is in it, or their order)`;
    case 'new':
      return `only when someone new enters the top ${digest.top}`;
  }
}

/** The schedule in words, zone included: "Mondays at 09:00 Europe/London". */
export function scheduleWords(digest: Pick<Digest, 'schedule'>): string {
  return truncate(cleanText(describeSchedule(digest.schedule)), 200);
}

/**
 * "Mon Nov 23, 09:00 GMT" in the schedule's zone, for text every reader sees alike; the year only
 * when it is not `now`'s.
 */
export function zonedTime(instant: Date, zone: string, now: Date | undefined): string {
  const time = DateTime.fromJSDate(instant, { zone: zoneFor(zone) }).setLocale(locale);
  if (!time.isValid) return escapeMrkdwn(instant.toISOString());
  const thisYear =
    now === undefined ? undefined : DateTime.fromJSDate(now, { zone: zoneFor(zone) }).year;
  const pattern = thisYear === time.year ? 'ccc LLL d, HH:mm ZZZZ' : 'ccc LLL d, yyyy, HH:mm ZZZZ';
  return time.toFormat(pattern);
}

/**
 * A run's time in the schedule's zone, then as a date each reader sees in their own zone: the
 * schedule is kept in its zone, but the reader acts in theirs.
 */
export function runTime(instant: Date, zone: string, now: Date | undefined): string {
  const iso =
    DateTime.fromJSDate(instant, { zone: zoneFor(zone) }).toISO() ?? instant.toISOString();
  return `${zonedTime(instant, zone, now)} (your time: ${slackDate(iso, zone)})`;
}
