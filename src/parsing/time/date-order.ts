/**
 * One date convention per range: when one end of a range proves its numeric date is day first
 * (`15/11/2026`: 15 cannot be a month), the other end is read day first too (`1/11/2026 to
 * 15/11/2026` is Nov 1 to Nov 15); where neither end decides, both stay month first.
 */
import { parseErrors } from '../messages/lookup.ts';
import type { DateRef, Moment, NumericOrder } from './ast.ts';
import { isRealDate } from './calendar.ts';

/** The numeric orders a moment's dates were read in, in order. */
function ordersOf(moment: Moment, into: NumericOrder[]): NumericOrder[] {
  if (moment.kind === 'through') {
    ordersOf(moment.first, into);
    ordersOf(moment.last, into);
  } else if ((moment.kind === 'day' || moment.kind === 'local') && moment.date?.kind === 'ymd') {
    if (moment.date.order !== undefined) into.push(moment.date.order);
  }
  return into;
}

/** The moment with its numeric dates read day first where they were open to either reading. */
function dayFirst(moment: Moment): Moment {
  switch (moment.kind) {
    case 'through':
      return { ...moment, first: dayFirst(moment.first), last: dayFirst(moment.last) };
    case 'day':
      return { ...moment, date: swapped(moment.date) };
    case 'local':
      return moment.date === undefined ? moment : { ...moment, date: swapped(moment.date) };
    default:
      return moment;
  }
}

function swapped(date: DateRef): DateRef {
  if (date.kind !== 'ymd' || date.order !== 'either' || date.month === date.day) return date;
  const { month, day } = { month: date.day, day: date.month };
  // Both numbers are 12 or less, so each reading is a real day of any year.
  return isRealDate(date.year ?? 2024, month, day)
    ? { ...date, month, day, order: 'day-first' }
    : date;
}

/**
 * `start` and `end` read in one convention.
 * @throws ParseError `bad_time` quoting `fragment` when one end is day first and the other month
 *   first as written (`15/11/2026 to 11/20/2026`).
 */
export function inOneOrder(
  start: Moment,
  end: Moment,
  fragment: () => string,
): { start: Moment; end: Moment } {
  const orders = ordersOf(end, ordersOf(start, []));
  const days = orders.includes('day-first');
  if (days && orders.includes('month-first')) throw parseErrors.mixedDateOrder(fragment());
  return days ? { start: dayFirst(start), end: dayFirst(end) } : { start, end };
}
