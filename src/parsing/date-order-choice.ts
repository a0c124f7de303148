/**
 * Numeric dates neither end of a request decides (`3/11/2026 to 10/11/2026`): read in the
 * person's locale when it is known (`en-GB` writes the day first, `en-US` the month), else asked.
 *
 * Month first stays the reading of a date no locale decides (`3/4/26` is March 4), as the grammar
 * says; it is asked about only where that reading spans months while the day-first one stays in
 * one month (`3/11 to 10/11`: Mar 11 to Oct 11, or Nov 3 to Nov 10), the sign of a person who
 * writes the day first. A number over 12 decides for every date of the request (`time/date-order.ts`).
 */
import type { Reading } from '../errors.ts';

/** `d/d/yyyy`, `d.d.yy`, `d-d-yyyy` standing as a word of its own. */
const numericDate = /(?<![\w/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\w/.-])/g;

/** A cheap first look: most commands hold no numeric date at all. */
const maybeNumericDate = /\d[/.-]\d{1,2}[/.-]\d/;

/** Regions whose people write the month first (`en-US`, `es-US`, `en-PH`). */
const monthFirstRegions: ReadonlySet<string> = new Set(['US', 'PH', 'FM', 'MH', 'PW', 'AS', 'GU']);

type Order = 'month-first' | 'day-first';

interface NumericDate {
  readonly at: number;
  readonly length: number;
  readonly first: number;
  readonly second: number;
  readonly year: number;
}

const monthNames = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/** The order a Slack locale (`en-GB`, `fr-FR`, `en-US`) writes numeric dates in. */
export function localeDateOrder(locale: string | undefined): Order | undefined {
  if (locale === undefined) return undefined;
  const region = /^[a-z]{2,3}[-_]([A-Za-z]{2})\b/i.exec(locale)?.[1]?.toUpperCase();
  if (region === undefined) return undefined;
  return monthFirstRegions.has(region) ? 'month-first' : 'day-first';
}

function datesIn(text: string): NumericDate[] {
  return [...text.matchAll(numericDate)].map((match) => {
    const year = Number(match[4]);
    return {
      at: match.index,
      length: match[0].length,
      first: Number(match[1]),
      second: Number(match[3]),
      year: (match[4] as string).length === 2 ? 2000 + year : year,
    };
  });
}

/** Both numbers can be a month, and they differ: the order changes the day. */
const open = (date: NumericDate): boolean =>
  date.first <= 12 &&
  date.second <= 12 &&
  date.first >= 1 &&
  date.second >= 1 &&
  date.first !== date.second;

function monthOf(date: NumericDate, order: Order): number {
  return order === 'month-first' ? date.first : date.second;
}

function dayOf(date: NumericDate, order: Order): number {
  return order === 'month-first' ? date.second : date.first;
}

/** `text` with every open date written as `yyyy-mm-dd` in `order`, which reads one way only. */
function written(text: string, dates: readonly NumericDate[], order: Order): string {
  let out = '';
  let from = 0;
  for (const date of dates) {
    out += text.slice(from, date.at);
    const month = String(monthOf(date, order)).padStart(2, '0');
    const day = String(dayOf(date, order)).padStart(2, '0');
    out += open(date) ? `${date.year}-${month}-${day}` : text.slice(date.at, date.at + date.length);
    from = date.at + date.length;
  }
  return out + text.slice(from);
}

function meaning(dates: readonly NumericDate[], order: Order): string {
  return dates
    .map((date) => `${monthNames[monthOf(date, order) - 1]} ${dayOf(date, order)}, ${date.year}`)
    .join(' to ');
}

/**
 * What to do with the request's numeric dates: `text` itself when nothing is open or a number
 * over 12 decides; the text written in the locale's order when the locale is known; the two
 * readings to ask about where the month-first one spans months and the day-first one does not.
 */
export function dateOrderChoice(
  text: string,
  locale: string | undefined,
):
  | { readonly text: string }
  | { readonly readings: readonly Reading[]; readonly fragment: string } {
  if (!maybeNumericDate.test(text)) return { text };
  const dates = datesIn(text);
  if (!dates.some(open)) return { text };
  if (dates.some((date) => date.first > 12 || date.second > 12)) return { text };
  const order = localeDateOrder(locale);
  if (order !== undefined) return { text: written(text, dates, order) };
  const months = (o: Order): number => new Set(dates.map((date) => monthOf(date, o))).size;
  if (dates.length < 2 || months('month-first') === 1 || months('day-first') !== 1) {
    return { text };
  }
  const first = dates[0] as NumericDate;
  const last = dates.at(-1) as NumericDate;
  return {
    fragment: text.slice(first.at, last.at + last.length),
    readings: (['day-first', 'month-first'] as const).map((o) => ({
      meaning: meaning(dates, o),
      command: written(text, dates, o),
    })),
  };
}
