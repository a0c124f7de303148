/**
 * A lookup's progress in words: pending, still running, timed out, stopped, maybe not delivered.
 * Also the notes on the zone a lookup or a new digest uses (the UTC fallback, a zone read from a
 * place or an abbreviation).
 */
import type { KnownBlock } from '@slack/types';
import type { LookupRequest } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import { context, section } from '../blocks.ts';
import {
  cleanText,
  escapeMrkdwn,
  formatDatabases,
  formatElapsed,
  neutralizeMrkdwn,
  truncate,
  truncateMrkdwn,
  windowWords,
} from '../format.ts';
import { blockKitLimits, checked } from '../limits.ts';

export interface StatusOptions {
  /** A remark for the user, e.g. that times are in UTC because the profile has no zone. */
  readonly note?: string;
  /** The reference instant: years are left out of the window when it is in the current year. */
  readonly now?: Date;
}

/**
 * What the acknowledgement says while the lookup runs: exactly what was understood, the window
 * written in the query's zone ("Nov 14 – Nov 20, whole days, EST", "Nov 21 09:00 to Nov 21 15:30
 * EST"), so a wrong reading shows at once.
 */
export function renderPending(request: LookupRequest, options: StatusOptions = {}): SlackMessage {
  return statusMessage(`Looking up ${subject(request, options.now)}…`, options);
}

/** The one update of the pending message when the service is slow. */
export function renderStillRunning(
  request: LookupRequest,
  elapsedMs: number,
  options: StatusOptions = {},
): SlackMessage {
  return statusMessage(
    `Still looking up ${subject(request, options.now)} ` +
      `(${formatElapsed(elapsedMs)} so far). The analytics service is slow right now; ` +
      'the answer will replace this message.',
    options,
  );
}

/** The final word when the lookup ran out of time. */
export function renderTimedOut(request: LookupRequest, options: StatusOptions = {}): SlackMessage {
  return statusMessage(
    `The lookup of ${subject(request, options.now)} took too long and was ` +
      'stopped. Try again in a few minutes, or ask for a shorter window (for example ' +
      '`last 24 hours`) or fewer databases.',
    options,
  );
}

/**
 * The final word when a restart (a deploy, Heroku's daily cycling) stopped the lookup before its
 * answer came: nothing was wrong with the request, so it says to ask again, not to narrow it.
 */
export function renderStoppedByRestart(
  request: LookupRequest,
  options: StatusOptions = {},
): SlackMessage {
  return statusMessage(
    `The app restarted before your answer was ready; ask again in a minute. ` +
      `(${capitalized(subject(request, options.now))}.)`,
    options,
  );
}

/** The final word when the person pressed Stop: the lookup was cancelled, nothing went wrong. */
export function renderStoppedByPerson(
  request: LookupRequest,
  options: StatusOptions = {},
): SlackMessage {
  return statusMessage(
    `Stopped: you pressed Stop, so the lookup was cancelled. ` +
      `(${capitalized(subject(request, options.now))}.)`,
    options,
  );
}

/**
 * What is being looked up, with its window: "top influencers for #hcsm, Nov 14 – Nov 20, …",
 * "weekly ranks of top influencers for …", "@DrFerreiraI in #hcsm, …".
 */
function subject(request: LookupRequest, now: Date | undefined): string {
  const databases = neutralizeMrkdwn(truncate(formatDatabases(request.databases), 300));
  const what =
    request.person !== undefined
      ? `@${neutralizeMrkdwn(truncate(request.person, 50))} in ${databases}`
      : request.trend !== undefined
        ? `${trendAdjectives[request.trend.unit]} ranks of top influencers for ${databases}`
        : `top influencers for ${databases}`;
  return `${what}, ${escapeMrkdwn(windowWords(request, now))}`;
}

const trendAdjectives = { day: 'daily', week: 'weekly', month: 'monthly' } as const;

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function statusMessage(mrkdwn: string, options: StatusOptions): SlackMessage {
  const text = truncateMrkdwn(mrkdwn, blockKitLimits.fallbackText);
  const blocks: KnownBlock[] = [section(text)];
  const note = options.note === undefined ? '' : cleanText(options.note);
  if (note.length > 0) blocks.push(context(truncateMrkdwn(escapeMrkdwn(note), 1000)));
  return checked({ text, blocks });
}

/** Added to a lookup when the person's Slack zone could not be read in time. */
export const utcFallbackNote =
  'Your Slack time zone could not be read in time, so dates are in UTC. Add "in <zone>" (e.g. in America/New_York) to choose one.';

/** Added to a digest confirmation when the creator's Slack zone could not be read. */
export const digestUtcFallbackNote =
  'Your Slack time zone could not be read in time, so this digest runs in UTC. To choose a zone, remove it and create it again with “in <zone>”, for example in America/New_York.';

/** Added to a lookup that left loose words out beside its databases (`#hcsm; DROP …`). */
export function leftOutNote(words: readonly string[]): string {
  const quoted = words.map((phrase) => `“${phrase}”`).join(', ');
  return `Left out ${quoted}: no database says so. To look it up as one, add it in quotes.`;
}

/** Added to a lookup whose zone the person named by an abbreviation or a place. */
export function zoneAliasNote(typed: string, zone: string): string {
  return `${typed} read as ${zone}.`;
}

/**
 * Said when Slack failed the post of an answer in a way that leaves unknown whether it was posted
 * (`internal_error`, a timeout) or failed it twice: the answer is not sent again, which could show
 * it twice, so the person learns to look and ask again.
 */
export function renderDeliveryInDoubt(): SlackMessage {
  return statusMessage(
    'Slack had trouble posting your answer, so it may not have arrived. If you do not see it ' +
      'here, ask again in a minute.',
    {},
  );
}
