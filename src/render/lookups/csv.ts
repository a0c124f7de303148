/**
 * The whole ranking as a CSV file, for the "Export CSV" button and `export` in a lookup.
 * Exact figures, full names, one row per person, for a spreadsheet. Names come from strangers on
 * social media, so a cell a spreadsheet would read as a formula is neutralized.
 */
import type { InfluencersResult } from '../../analytics/types.ts';
import { defined } from '../../model/defined.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import { metricNames } from '../../model/metrics.ts';
import { cleanText, formatDatabases, neutralizeMrkdwn, truncate } from '../format.ts';
import { followersOf } from './answer-list.ts';
import { defaultMetric, metricHeading, metricValue } from './metric-words.ts';
import { type RankedRow, rankingOf, rankingSubject } from './ranking.ts';
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
  const rows = ranking.rows.map((row) => [String(row.rank), ...personCells(row, row)]);
  const title = `${rankingSubject(ranking.rows.length)} for ${formatDatabases(request.databases)}, ${rankingWords(request, metric, result)}`;
  return csvFile(request, {
    name: 'influencers',
    title,
    rows: [['Rank', ...personColumns], ...rows],
    ...defined({ selected: selectionLine(request, metric, result) }),
  });
}

/** What a person's row of a file holds after its rank, in this order (see {@link personCells}). */
export const personColumns: readonly string[] = [
  'Display name',
  'Handle',
  'Profile URL',
  ...metricNames.map(metricHeading),
  'Followers',
  'Categories',
];

/**
 * The cells of {@link personColumns}: who the person is from `profile`, the figures from
 * `figures` (empty cells without it: the person was not ranked then).
 */
export function personCells(
  profile: RankedRow,
  figures: Pick<RankedRow, 'influencer'> | undefined,
): string[] {
  return personCellsFor(profile)(figures);
}

/**
 * {@link personCells} for one person in many periods: who they are is cleaned once, each period
 * adds only its figures. A trend's file has a row per person and period, and cleaning long names
 * and categories in every row made it twenty times slower with twenty periods.
 */
export function personCellsFor(
  profile: RankedRow,
): (figures: Pick<RankedRow, 'influencer'> | undefined) => string[] {
  const handle = profile.screenName;
  const categories = (profile.influencer.stakeholderCategories ?? [])
    .map((category) => cleanText(typeof category?.name === 'string' ? category.name : ''))
    .filter((name) => name.length > 0);
  const before = [
    text(cleanText(profile.influencer.displayName ?? '')),
    text(handle),
    text(handle.length > 0 ? `https://x.com/${encodeURIComponent(handle)}` : ''),
  ];
  const after = [String(followersOf(profile) ?? ''), text([...new Set(categories)].join('; '))];
  return (figures) => [
    ...before,
    ...metricNames.map((name) =>
      figures === undefined ? '' : String(metricValue(figures.influencer, name) ?? ''),
    ),
    ...after,
  ];
}

/**
 * The file of `rows` (the header first) for `request`: named `<name>_<databases>_<start>_<end>_
 * <zone>_<order>.csv`, titled `title`, posted with the query it answers (and who of the
 * service's top people it keeps, when `selected` says).
 */
export function csvFile(
  request: LookupRequest,
  file: {
    readonly name: string;
    readonly title: string;
    readonly rows: readonly string[][];
    readonly selected?: string;
  },
): CsvFile {
  const metric = request.metric ?? defaultMetric;
  const content = `\uFEFF${file.rows.map((cells) => cells.map(quoted).join(',')).join('\r\n')}\r\n`;
  const start = isoInstant(request.start);
  const end = isoInstant(request.end);
  const zone = cleanText(request.timezone);
  return {
    filename: [
      file.name,
      truncate(safe(request.databases.join('+')), maxDatabasesInName, ''),
      safe(start),
      safe(end),
      safe(zone),
      request.orderBy ?? metric,
    ]
      .filter((part) => part.length > 0)
      .join('_')
      .concat('.csv'),
    title: truncate(cleanText(file.title), 250),
    comment: truncate(
      [
        neutralizeMrkdwn(file.title),
        `${start} to ${end}`,
        `zone ${neutralizeMrkdwn(zone)}`,
        ...(file.selected === undefined ? [] : [neutralizeMrkdwn(file.selected)]),
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
