/**
 * A digest's schedule and window in words, for confirmations, lists and posts, and the words the
 * digest rules put in a ParseError (errorText shows them like any parse error). The schedule math
 * itself is in src/time/schedule.ts.
 */

import {
  type Cadence,
  type CalendarWindowUnit,
  type CronSchedule,
  type DigestWindow,
  runsAtMonthEnd,
} from '../../model/digest.ts';
import { weekdays } from '../../time/cron.ts';

/**
 * Every rule of a monthly digest's default window in one sentence, for confirmations and help:
 * which months a run reports depends on its day.
 */
export const monthlyWindowRules =
  'A monthly digest on the 1st to the 28th covers the previous calendar month; one on the 29th to the 31st or on the last day covers its own month so far (from the 1st at 00:00 to the run), with any month it skipped.';

/** Creating or resuming a digest whose schedule has no future run. */
export function scheduleNeverRunsText(expression: string): string {
  return `The schedule "${expression}" never runs again.`;
}

/**
 * The day of the month a schedule runs on, from cron's day-of-month field (`L` is `'last'`);
 * undefined unless it runs on that one day of every month, whatever the weekday.
 */
export function monthDayOf(expression: string): number | 'last' | undefined {
  const [minute, hour, dom, month, dow, ...rest] = expression.trim().split(/\s+/);
  if (minute === undefined || hour === undefined || month !== '*' || dow !== '*') return undefined;
  if (rest.length > 0) return undefined;
  if (dom === 'L') return 'last';
  return dom !== undefined && /^\d{1,2}$/.test(dom) ? Number(dom) : undefined;
}

/**
 * The day past the 28th a monthly schedule runs on, which months without it skip (never moved to
 * their last day); undefined for any other schedule.
 */
export function shortMonthSkipDay(expression: string): number | undefined {
  const day = monthDayOf(expression);
  return typeof day === 'number' && day > 28 && day <= 31 ? day : undefined;
}

/** What the months a day-of-month schedule skips lack: "without a 31st". */
function withoutDay(day: number): string {
  return `without a ${ordinal(day)}`;
}

/**
 * The month-end rule for a digest's creator, shown when the schedule skips short months: how to
 * get a run at the end of every month instead.
 */
export function shortMonthsNote(day: number): string {
  return `Months ${withoutDay(day)} are skipped. To run at the end of every month, create it with “on the last day of every month” instead.`;
}

/** "1st", "22nd", "31st". */
export function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

const calendarWindowWords: Readonly<Record<CalendarWindowUnit, string>> = {
  week: 'the previous calendar week, Monday to Sunday',
  month: 'the previous calendar month',
  quarter: 'the previous calendar quarter',
  year: 'the previous calendar year',
};

/**
 * The window in words for confirmations: "the 7 days before each run". Pass the schedule so that
 * a monthly digest on the 29th, 30th or 31st says it also covers the months it skips.
 */
export function describeWindow(
  window: DigestWindow,
  cadence: Cadence,
  schedule?: Pick<CronSchedule, 'expression'>,
): string {
  if (window.kind === 'calendar') return calendarWindowWords[window.unit];
  if (window.kind === 'last') {
    const unit = window.amount === 1 ? window.unit.replace(/s$/, '') : window.unit;
    return window.amount === 1
      ? `the ${unit} before each run`
      : `the ${window.amount} ${unit} before each run`;
  }
  switch (cadence) {
    case 'daily':
      // Not "24 hours": across a DST change the day since the previous run is 23 or 25 hours.
      return 'the day before each run';
    case 'weekly':
      return 'the 7 days before each run';
    case 'monthly': {
      if (schedule === undefined || !runsAtMonthEnd(schedule.expression)) {
        return 'the previous calendar month';
      }
      const day = shortMonthSkipDay(schedule.expression);
      return day === undefined
        ? 'the month so far, from the 1st at 00:00 to the run'
        : `the month so far, from the 1st at 00:00 to the run, and the month before it too after a month ${withoutDay(day)}`;
    }
    case 'custom':
      return 'the time since the previous scheduled run';
  }
}

const dayWords = [
  'Sundays',
  'Mondays',
  'Tuesdays',
  'Wednesdays',
  'Thursdays',
  'Fridays',
  'Saturdays',
];

const dayNames = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const nthWords = ['', 'first', 'second', 'third', 'fourth', 'fifth'];

function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * The schedule in words, followed by its zone: "Mondays at 09:00 Europe/London", "Every 6 hours at
 * :00 Europe/London", "On the 1st and 15th of every month at 09:00 UTC", "On the first Monday of
 * every month at 09:00 UTC". Patterns beyond the common ones (other steps, lists of hours,
 * months) are shown as the cron expression itself.
 */
export function describeSchedule(
  schedule: Pick<CronSchedule, 'expression' | 'zone' | 'everyWeeks'>,
): string {
  const every = schedule.everyWeeks;
  const base = describeCron(schedule);
  if (every === undefined || every <= 1) return base;
  return `${every === 2 ? 'Every other week' : `Every ${every} weeks`}, ${base}`;
}

function describeCron(schedule: Pick<CronSchedule, 'expression' | 'zone'>): string {
  const fields = schedule.expression.trim().split(/\s+/);
  const [minute, hour, dom, month, dow] = fields;
  const plain = `cron "${schedule.expression.trim()}" in ${schedule.zone}`;
  if (fields.length !== 5 || minute === undefined || hour === undefined) return plain;
  const step = hour === '*' ? 1 : /^\*\/(\d{1,2})$/.exec(hour)?.[1];
  if (/^\d{1,2}$/.test(minute) && step !== undefined && `${dom} ${month} ${dow}` === '* * *') {
    const every = Number(step);
    return `${every === 1 ? 'Every hour' : `Every ${every} hours`} at :${minute.padStart(2, '0')} ${schedule.zone}`;
  }
  const quarterly = month === '1,4,7,10';
  if (!/^\d{1,2}$/.test(minute) || !/^\d{1,2}$/.test(hour) || (month !== '*' && !quarterly)) {
    return plain;
  }
  const time = `${hour.padStart(2, '0')}:${minute.padStart(2, '0')}`;
  const at = `at ${time} ${schedule.zone}`;
  if (quarterly) return quarterlyWords(dom, dow, at) ?? plain;
  if (dom === '*' && dow === '*') return `Every day ${at}`;
  if (dom === '*' && dow !== undefined) {
    const nth = /^([0-6])#([1-5L])$/.exec(dow);
    if (nth !== null) {
      const which = nth[2] === 'L' ? 'last' : nthWords[Number(nth[2])];
      const day = (dayWords[Number(nth[1])] ?? '').replace(/s$/, '');
      return `On the ${which} ${day} of every month ${at}`;
    }
    const days = weekdays(dow);
    if (!days) return plain;
    const key = days.join(',');
    if (key === '1,2,3,4,5') return `Weekdays ${at}`;
    if (key === '0,6') return `Weekends ${at}`;
    if (days.length === 7) return `Every day ${at}`;
    return `${listInWords(days.map((day) => dayWords[day] ?? ''))} ${at}`;
  }
  if (dow === '*' && dom !== undefined && /^\d{1,2}(,\d{1,2})+$/.test(dom)) {
    const days = dom.split(',').map((each) => ordinal(Number(each)));
    return `On the ${listInWords(days)} of every month ${at}`;
  }
  const day = monthDayOf(schedule.expression);
  if (day === 'last') return `On the last day of every month ${at}`;
  if (day === undefined) return plain;
  const skipDay = shortMonthSkipDay(schedule.expression);
  const skipped = skipDay === undefined ? '' : ` (skipped in months ${withoutDay(skipDay)})`;
  return `On the ${ordinal(day)} of every month ${at}${skipped}`;
}

/** "On the first Monday of each quarter at 09:00 UTC", "On the 1st of each quarter at …". */
function quarterlyWords(
  dom: string | undefined,
  dow: string | undefined,
  at: string,
): string | undefined {
  const nth = dom === '*' ? /^([0-6])#([1-5L])$/.exec(dow ?? '') : null;
  if (nth !== null) {
    const which = nth[2] === 'L' ? 'last' : nthWords[Number(nth[2])];
    const day = (dayWords[Number(nth[1])] ?? '').replace(/s$/, '');
    return `On the ${which} ${day} of each quarter (January, April, July, October) ${at}`;
  }
  if (dow === '*' && /^\d{1,2}$/.test(dom ?? '')) {
    return `On the ${ordinal(Number(dom))} of each quarter (January, April, July, October) ${at}`;
  }
  return undefined;
}

/**
 * The schedule as words the digest grammar reads back to the same expression: what the Edit
 * modal is prefilled with ("every monday at 09:00", "every 6 hours", "on the last day of every
 * month at 17:00"); `cron "<expression>"` for what has no such words.
 */
export function schedulePhrase(expression: string, everyWeeks?: number): string {
  const phrase = cronPhrase(expression);
  if (everyWeeks === undefined || everyWeeks <= 1) return phrase;
  // "every monday at 09:00" -> "every 2 weeks on monday at 09:00", which reads back the same.
  const days = /^every ((?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b.*)$/.exec(
    phrase,
  );
  return days === null ? phrase : `every ${everyWeeks} weeks on ${days[1]}`;
}

function cronPhrase(expression: string): string {
  const fields = expression.trim().split(/\s+/);
  const [minute, hour, dom, month, dow] = fields;
  const cron = `cron "${expression.trim()}"`;
  if (fields.length !== 5 || month !== '*') return cron;
  if (minute === '0' && dom === '*' && dow === '*') {
    if (hour === '*') return 'every hour';
    const step = /^\*\/(\d{1,2})$/.exec(hour ?? '')?.[1];
    if (step !== undefined) return `every ${step} hours`;
  }
  if (!/^\d{1,2}$/.test(minute ?? '') || !/^\d{1,2}$/.test(hour ?? '')) return cron;
  const at = `at ${(hour ?? '').padStart(2, '0')}:${(minute ?? '').padStart(2, '0')}`;
  if (dom === '*' && dow === '*') return `every day ${at}`;
  if (dom === '*' && dow !== undefined) {
    const nth = /^([0-6])#([1-5L])$/.exec(dow);
    if (nth !== null) {
      const day = dayNames[Number(nth[1])];
      return nth[2] === 'L'
        ? `every last ${day} ${at}`
        : `the ${nthWords[Number(nth[2])]} ${day} of the month ${at}`;
    }
    const days = weekdays(dow);
    if (days === undefined) return cron;
    const key = days.join(',');
    if (key === '1,2,3,4,5') return `weekdays ${at}`;
    if (key === '0,6') return `weekends ${at}`;
    if (days.length === 7) return `every day ${at}`;
    return `every ${listInWords(days.map((day) => dayNames[day] ?? ''))} ${at}`;
  }
  if (dow !== '*' || dom === undefined) return cron;
  if (dom === 'L') return `on the last day of every month ${at}`;
  if (/^\d{1,2}$/.test(dom)) return `every month on the ${ordinal(Number(dom))} ${at}`;
  if (/^\d{1,2}(,\d{1,2})+$/.test(dom)) {
    return `on the ${listInWords(dom.split(',').map((day) => ordinal(Number(day))))} ${at}`;
  }
  return cron;
}
