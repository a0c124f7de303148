/**
 * The words of a streamed answer in the app's Messages tab (Slack's agent messaging).
 * The line that says at once what was understood, one task per window the service is asked about,
 * and the pieces a long markdown text is sent in. Streamed text is standard markdown, not mrkdwn,
 * so names people typed are escaped for it.
 */
import type { LookupRequest } from '../../model/lookup.ts';
import { renderError } from '../errors.ts';
import { cleanText, formatDatabases, truncate, unescapeMrkdwn, windowWords } from '../format.ts';
import { renderAssistantTitle } from './assistant.ts';

/** Slack's limits for streamed messages (chat.startStream, appendStream, stopStream). */
export const streamLimits = {
  /** `markdown_text` of one call, and the text of one markdown chunk. */
  markdownPerCall: 12_000,
  /** A task's `details` and `output`. */
  taskText: 256,
  /** A task's title is not documented; kept as short as its details. */
  taskTitle: 256,
  /** `blocks` at stop. */
  blocksAtStop: 50,
} as const;

/** An agent session's title (agents.sessions.setStatus and rename): 1 to 200 characters. */
export const sessionTitleMax = 200;

/** The title of a thread's agent session: what its first lookup asked about. */
export function renderSessionTitle(request: LookupRequest, now?: Date): string {
  return truncate(renderAssistantTitle(request, now), sessionTitleMax);
}

/** Backslash before every character markdown could read as formatting or a link. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_~[\]()<>]/g, (character) => `\\${character}`);
}

/**
 * The first line of the answer, sent before the service is asked: the databases, the window in
 * its zone's words and the zone's name, so a wrong reading shows at once.
 */
export function renderUnderstood(request: LookupRequest, now?: Date, note?: string): string {
  const databases = escapeMarkdown(truncate(formatDatabases(request.databases), 300));
  const person =
    request.person === undefined ? '' : `@${escapeMarkdown(truncate(request.person, 50))} in `;
  const what =
    request.trend === undefined ? '' : ` (${request.trend.unit} by ${request.trend.unit})`;
  const line =
    `Looking up **${person}${databases}**${what} · ${windowWords(request, now)} · ` +
    `times in ${request.timezone}`;
  const remark = note === undefined ? '' : `\n_${escapeMarkdown(cleanText(note))}_`;
  return truncate(`${line}${remark}\n`, streamLimits.markdownPerCall);
}

/** A window's task: its databases and its window, as the list of tasks shows it. */
export function renderWindowTask(asked: LookupRequest, now?: Date): string {
  return truncate(
    `${formatDatabases(asked.databases)} · ${windowWords(asked, now)}`,
    streamLimits.taskTitle,
  );
}

/** What a window's task ends with once the service answered: how many people it ranked. */
export function renderWindowRows(rows: number): string {
  const words =
    rows === 0 ? 'nobody ranked' : rows === 1 ? '1 person ranked' : `${rows} people ranked`;
  return truncate(words, streamLimits.taskText);
}

/** What a window's task ends with when it failed: the words a lookup gives for the failure. */
export function renderWindowFailure(error: unknown): string {
  return truncate(unescapeMrkdwn(renderError(error).text), streamLimits.taskText);
}

/**
 * `text` in pieces of at most {@link streamLimits.markdownPerCall} characters, cut at a line end
 * when there is one, so each fits one call.
 */
export function markdownPieces(text: string, max: number = streamLimits.markdownPerCall): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const lineEnd = rest.lastIndexOf('\n', max - 1);
    const cut = lineEnd > 0 ? lineEnd + 1 : max;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.length > 0) pieces.push(rest);
  return pieces;
}
