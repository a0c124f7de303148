/**
 * A report canvas in Slack's canvas markdown, the frame both digest and conference canvases use.
 * It holds the question and its window, the current ranking as a markdown table, who moved and
 * who is new, and the history of earlier runs, newest first. Pure; whoever keeps a canvas (a
 * digest, a leaderboard) maps its data to a `CanvasReport`.
 *
 * Decisions:
 * - No leading `# ` heading: the canvas shows its title as one. Sections are `##`.
 * - People in Slack as `![](@U…)` and channels as `![](#C…)` (canvases do not render `<@U…>`);
 *   handles as links to their X profile, when they are handles at all.
 * - Text from outside (names, databases) is one line with markdown's characters escaped, and a
 *   table cell also loses its pipes to `\|`, so no name can break a row or the table. A URL in it
 *   loses its `://` to a lookalike, as in messages, so no name becomes a link.
 * - The document stays under `maxBytes` (100 KB by default, far below Slack's 1 MiB): the oldest
 *   history goes first, and the canvas says how many runs it left out.
 */
import { DateTime } from 'luxon';
import { cleanText, formatWindow, truncate, unlinkUrls } from '../format.ts';
import { isSlackId } from '../mentions.ts';

/** Slack refuses canvas markdown over 1 MiB; a report stays a tenth of that. */
export const canvasMaxBytes = 100 * 1024;

/** At most this many rows and columns in the ranking table. */
export const canvasTableMaxRows = 10;
export const canvasTableMaxColumns = 6;

/** How many earlier runs the history keeps. */
export const canvasHistoryMaxEntries = 26;

/** Newcomers named per history entry; the rest are counted. */
const maxNewcomersPerEntry = 5;
/** Names and handles are cut here: a canvas is read, not searched. */
const maxNameLength = 80;
const maxQuestionLength = 400;

/** One account of the current ranking. */
export interface CanvasRow {
  readonly rank: number;
  readonly handle: string;
  readonly name?: string | undefined;
  /** One value per `CanvasReport.columns`; missing ones show as `–`. */
  readonly values: readonly (string | undefined)[];
  /** `▲2`, `▼1`, `new`; empty when unchanged or on a first run. */
  readonly move?: string;
}

export interface CanvasAccount {
  readonly handle: string;
  readonly name?: string | undefined;
}

/** One earlier run, for the history section. */
export interface CanvasHistoryEntry {
  /** The run's scheduled instant. */
  readonly at: Date;
  /** Its top 3 (or fewer), by rank. */
  readonly top: readonly CanvasAccount[];
  /** Who entered the top N at that run. */
  readonly newcomers: readonly CanvasAccount[];
  /** Why the run did not post, in words; absent when it posted. */
  readonly note?: string | undefined;
}

export interface CanvasMoves {
  /** No earlier run to compare with. */
  readonly firstRun: boolean;
  readonly newcomers: readonly CanvasAccount[];
  readonly up: readonly {
    readonly account: CanvasAccount;
    readonly from: number;
    readonly to: number;
  }[];
  readonly down: readonly {
    readonly account: CanvasAccount;
    readonly from: number;
    readonly to: number;
  }[];
  readonly left: readonly CanvasAccount[];
}

export interface CanvasReport {
  /** What the report answers, plain text: "Top 10 of #hcsm, ranked by mentions". */
  readonly question: string;
  /** The window of the current ranking, read in `zone`. */
  readonly window: { readonly start: Date; readonly end: Date; readonly zone: string };
  /** Plain-text facts after the window ("Weekly, Mondays at 09:00"), one line each. */
  readonly details?: readonly string[];
  /** The channel it reports to and the person who asked for it, as mentions. */
  readonly channelId?: string;
  readonly creatorId?: string;
  /** Headings of the value columns, at most three (the table has six columns). */
  readonly columns: readonly string[];
  readonly rows: readonly CanvasRow[];
  readonly moves: CanvasMoves;
  /** Earlier runs, newest first; at most 26 are shown. */
  readonly history: readonly CanvasHistoryEntry[];
  /** When the canvas was written, shown at its foot. */
  readonly updatedAt: Date;
}

export interface CanvasRenderOptions {
  /** Default {@link canvasMaxBytes}. */
  readonly maxBytes?: number;
}

const markdownSpecial = /[\\`*_~[\]<>#!|]/g;

/**
 * Text from outside as one line of canvas markdown that reads literally: cleaned, cut, every
 * character markdown could read as syntax (pipes included) escaped with a backslash, and no URL
 * left for the canvas to link.
 */
export function canvasText(text: string, max = maxNameLength): string {
  return unlinkUrls(truncate(cleanText(text), max)).replace(markdownSpecial, (char) => `\\${char}`);
}

/** Reverses {@link canvasText}'s escapes (not its cleaning nor its URLs): what a reader sees. */
export function unescapeCanvasText(text: string): string {
  return text.replace(/\\(.)/gu, '$1');
}

const handlePattern = /^[A-Za-z0-9_]{1,50}$/;

/** `[@jane](https://x.com/jane)`; anything that is not a handle stays text. */
export function canvasHandle(handle: string): string {
  const bare = cleanText(handle).replace(/^@+/u, '');
  return handlePattern.test(bare)
    ? `[@${bare.replaceAll('_', '\\_')}](https://x.com/${bare})`
    : `@${canvasText(bare)}`;
}

/** `![](@U123)`; a stored id gone wrong reads `someone`. */
export function canvasUserMention(userId: string | undefined): string {
  return isSlackId(userId) ? `![](@${userId})` : 'someone';
}

/** `![](#C123)`; a stored id gone wrong reads `a channel`. */
export function canvasChannelMention(channelId: string | undefined): string {
  return isSlackId(channelId) ? `![](#${channelId})` : 'a channel';
}

function account(person: CanvasAccount): string {
  const name = person.name === undefined ? '' : cleanText(person.name);
  return name === ''
    ? canvasHandle(person.handle)
    : `${canvasText(name)} (${canvasHandle(person.handle)})`;
}

/** One table row: `| a | b |`, each cell escaped so it stays one cell. */
export function tableRow(cells: readonly string[]): string {
  return `| ${cells.map((cell) => (cell === '' ? ' ' : cell)).join(' | ')} |`;
}

/** The ranking as a markdown table of at most 10 rows and 6 columns. */
export function rankingTable(columns: readonly string[], rows: readonly CanvasRow[]): string {
  const values = columns.slice(0, canvasTableMaxColumns - 3);
  const head = ['#', 'Account', 'Name', ...values.map((column) => canvasText(column, 40))];
  const lines = [tableRow(head), tableRow(head.map(() => '---'))];
  for (const row of rows.slice(0, canvasTableMaxRows)) {
    lines.push(
      tableRow([
        String(row.rank),
        canvasHandle(row.handle),
        row.name === undefined ? '' : canvasText(row.name),
        ...values.map((_, i) => canvasText(row.values[i] ?? '–', 40)),
      ]),
    );
  }
  return lines.join('\n');
}

/** `a, b and 3 more`: at most `max` named. */
function named(people: readonly string[], max: number): string {
  const more = people.length - max;
  return people.slice(0, max).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

function movesSection(moves: CanvasMoves): string {
  if (moves.firstRun) return 'First run: the next ones will say who moved.';
  const lines: string[] = [];
  if (moves.newcomers.length > 0) {
    lines.push(`- New: ${named(moves.newcomers.map(account), canvasTableMaxRows)}`);
  }
  const moved = (word: string, list: CanvasMoves['up']) =>
    list.length === 0
      ? []
      : [
          `- ${word}: ${named(
            list.map((move) => `${account(move.account)}, ${move.from} → ${move.to}`),
            canvasTableMaxRows,
          )}`,
        ];
  lines.push(...moved('Up', moves.up), ...moved('Down', moves.down));
  if (moves.left.length > 0) {
    lines.push(`- Left: ${named(moves.left.map(account), canvasTableMaxRows)}`);
  }
  return lines.length === 0 ? 'No change since the previous run.' : lines.join('\n');
}

function historyLine(entry: CanvasHistoryEntry, zone: string): string {
  const date = DateTime.fromJSDate(entry.at, { zone }).toFormat('ccc LLL d, yyyy');
  if (entry.note !== undefined) return `- **${date}**: ${canvasText(entry.note, 200)}`;
  const top =
    entry.top.length === 0
      ? 'no one ranked'
      : entry.top
          .slice(0, 3)
          .map((person, i) => `${i + 1}. ${account(person)}`)
          .join(', ');
  const newcomers =
    entry.newcomers.length === 0
      ? ''
      : `; new: ${named(entry.newcomers.map(account), maxNewcomersPerEntry)}`;
  return `- **${date}**: ${top}${newcomers}`;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The report's canvas markdown, at most `maxBytes` (UTF-8). What does not fit is the oldest
 * history, dropped first and counted in a line that says so.
 */
export function renderCanvasReport(
  report: CanvasReport,
  options: CanvasRenderOptions = {},
): string {
  const maxBytes = options.maxBytes ?? canvasMaxBytes;
  const zone = report.window.zone;
  const window = formatWindow({
    start: report.window.start.toISOString(),
    end: report.window.end.toISOString(),
    timezone: zone,
  });
  const about = [
    `**${canvasText(report.question, maxQuestionLength)}**`,
    '',
    `Window: ${canvasText(window, 120)} (${canvasText(zone, 60)})`,
    ...(report.details ?? []).map((detail) => canvasText(detail, 200)),
    ...(report.channelId === undefined && report.creatorId === undefined
      ? []
      : [
          [
            report.channelId === undefined
              ? ''
              : `Posted in ${canvasChannelMention(report.channelId)}`,
            report.creatorId === undefined
              ? ''
              : `asked for by ${canvasUserMention(report.creatorId)}`,
          ]
            .filter((part) => part !== '')
            .join(', '),
        ]),
  ].join('\n');
  const ranking =
    report.rows.length === 0
      ? 'No one ranked in this window.'
      : rankingTable(report.columns, report.rows);
  const updated = DateTime.fromJSDate(report.updatedAt, { zone }).toFormat(
    'LLL d, yyyy HH:mm ZZZZ',
  );
  const head = [about, '## Ranking', ranking, '## Who moved', movesSection(report.moves)].join(
    '\n\n',
  );
  const foot = `---\nRewritten at each run; last written ${canvasText(updated, 60)}.`;
  const entries = report.history
    .slice(0, canvasHistoryMaxEntries)
    .map((entry) => historyLine(entry, zone));
  const document = (kept: number) => {
    const dropped = entries.length - kept;
    const lines = entries.slice(0, kept);
    if (dropped > 0) {
      lines.push(
        `- ${dropped} older ${dropped === 1 ? 'run' : 'runs'} left out to keep this canvas under ${Math.floor(maxBytes / 1024)} KB.`,
      );
    }
    const history = lines.length === 0 ? 'No earlier runs yet.' : lines.join('\n');
    return `${head}\n\n## History\n\n${history}\n\n${foot}\n`;
  };
  let kept = entries.length;
  let text = document(kept);
  while (bytes(text) > maxBytes && kept > 0) {
    kept -= 1;
    text = document(kept);
  }
  return text;
}
