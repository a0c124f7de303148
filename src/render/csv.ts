/**
 * The whole ranking as a CSV file (the "Export CSV" button, `export` in a lookup): exact figures,
 * full names, one row per person, for a spreadsheet. Names come from strangers on social media, so
 * a cell a spreadsheet would read as a formula is neutralized.
 */
import type { InfluencersResult } from '../analytics/types.ts';
import type { LookupRequest } from '../model/lookup.ts';
import { metricNames } from '../model/metrics.ts';
import { followersOf } from './answer-list.ts';
import { cleanText, formatDatabases, neutralizeMrkdwn, truncate } from './format.ts';
import { defaultMetric, metricHeading, metricValue } from './metric-words.ts';
import { rankingOf, rankingSubject } from './ranking.ts';
import { rankingWords, selectionLine } from './selection.ts';

export interface CsvFile {
  /** Safe characters only (letters, digits, `.`, `_`, `-`, `+`), with the query in it. */
  readonly filename: string;
  /** The file's title in Slack. */
  readonly title: string;
  /** The mrkdwn message the file is posted with: the query it answers. */
  readonly comment: string;
  /** UTF-8 text with a byte order mark, CRLF line ends, RFC 4180 quoting. */
  readonly content: string;
}

/** Spreadsheets start a formula at these (and run DDE at a tab or carriage return). */
const formulaStarts = /^[=+\-@\t\r]/u;
/** The databases' share of the file name, so the name stays well under file system limits. */
const maxDatabasesInName = 80;

/** The ranking of `request` in `result` as a CSV file. */
export function renderCsv(request: LookupRequest, result: InfluencersResult): CsvFile {
  const metric = request.metric ?? defaultMetric;
  const ranking = rankingOf(result, metric, request.top);
  const header = [
    'Rank',
    'Display name',
    'Handle',
    'Profile URL',
    ...metricNames.map(metricHeading),
    'Followers',
    'Categories',
  ];
  const rows = ranking.rows.map((row) => {
    const handle = row.screenName;
    const categories = (row.influencer.stakeholderCategories ?? [])
      .map((category) => cleanText(typeof category?.name === 'string' ? category.name : ''))
      .filter((name) => name.length > 0);
    return [
      String(row.rank),
      text(cleanText(row.influencer.displayName ?? '')),
      text(handle),
      text(handle.length > 0 ? `https://x.com/${encodeURIComponent(handle)}` : ''),
      ...metricNames.map((name) => String(metricValue(row.influencer, name) ?? '')),
      String(followersOf(row) ?? ''),
      text([...new Set(categories)].join('; ')),
    ];
  });
  const content = `\uFEFF${[header, ...rows].map((cells) => cells.map(quoted).join(',')).join('\r\n')}\r\n`;

  const databases = formatDatabases(request.databases);
  const start = isoInstant(request.start);
  const end = isoInstant(request.end);
  const zone = cleanText(request.timezone);
  const selected = selectionLine(request, metric, result);
  const title = `${rankingSubject(ranking.rows.length)} for ${databases}, ${rankingWords(request, metric, result)}`;
  return {
    filename: [
      'influencers',
      truncate(safe(request.databases.join('+')), maxDatabasesInName, ''),
      safe(start),
      safe(end),
      safe(zone),
      request.orderBy ?? metric,
    ]
      .filter((part) => part.length > 0)
      .join('_')
      .concat('.csv'),
    title: truncate(cleanText(title), 250),
    comment: truncate(
      [
        neutralizeMrkdwn(title),
        `${start} to ${end}`,
        `zone ${neutralizeMrkdwn(zone)}`,
        ...(selected === undefined ? [] : [neutralizeMrkdwn(selected)]),
      ].join(' · '),
      3000,
    ),
    content,
  };
}

/** A cell from outside, made inert: a leading `=`, `+`, `-`, `@`, tab or CR gets a quote before it. */
function text(value: string): string {
  return formulaStarts.test(value) ? `'${value}` : value;
}

/** RFC 4180: a cell with a comma, a quote or a line break is quoted, its quotes doubled. */
function quoted(cell: string): string {
  return /[",\r\n]/u.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** The instant in UTC to the second (`2026-11-14T05:00:00Z`), or the text as given. */
function isoInstant(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time)
    ? cleanText(iso)
    : new Date(time).toISOString().replace(/\.\d{3}Z$/u, 'Z');
}

/** Letters, digits, `.`, `_`, `-` and `+` only: `#hcsm` -> `hcsm`, `12:00` -> `12-00`. */
function safe(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._+-]+/gu, '-')
    .replace(/^[-.]+|-+$/gu, '')
    .replace(/-{2,}/gu, '-');
}
