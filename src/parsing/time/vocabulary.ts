/** The English words the time grammar knows, lower-case. */

export type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
export type CalendarUnit = 'week' | 'month' | 'quarter' | 'year';

const monthNames = [
  ['jan', 'january'],
  ['feb', 'february'],
  ['mar', 'march'],
  ['apr', 'april'],
  ['may'],
  ['jun', 'june'],
  ['jul', 'july'],
  ['aug', 'august'],
  ['sep', 'sept', 'september'],
  ['oct', 'october'],
  ['nov', 'november'],
  ['dec', 'december'],
] as const;

const weekdayNames = [
  ['mon', 'monday'],
  ['tue', 'tues', 'tuesday'],
  ['wed', 'weds', 'wednesday'],
  ['thu', 'thur', 'thurs', 'thursday'],
  ['fri', 'friday'],
  ['sat', 'saturday'],
  ['sun', 'sunday'],
] as const;

/** Words that join the ends of a range; all mean the same (see `TimeExpression`). */
export const rangeSeparators: ReadonlySet<string> = new Set([
  'to',
  'till',
  'til',
  'until',
  'through',
  'thru',
]);

/** Weekday names in full, Monday first. */
export const fullWeekdays: readonly string[] = weekdayNames.map(
  (names) => names[names.length - 1] as string,
);

/**
 * German month names that English does not share, as continental dates give them (`1.-15.
 * Oktober`, `KW 46`); the others (`April`, `August`, `September`, `November`) are English too.
 */
const germanMonths: ReadonlyMap<string, number> = new Map([
  ['januar', 1],
  ['februar', 2],
  ['märz', 3],
  ['maerz', 3],
  ['juni', 6],
  ['juli', 7],
  ['oktober', 10],
  ['okt', 10],
  ['dezember', 12],
  ['dez', 12],
]);

/** Month number 1-12 by name or abbreviation (`sep`, `sept.`, `september`, `Oktober`). */
export const months: ReadonlyMap<string, number> = new Map([
  ...monthNames.flatMap((names, i) =>
    names.flatMap((n) => [[n, i + 1] as const, [`${n}.`, i + 1] as const]),
  ),
  ...germanMonths,
]);

/** ISO weekday 1 (Monday) to 7 by name or abbreviation, also plural (`mondays`). */
export const weekdays: ReadonlyMap<string, number> = new Map(
  weekdayNames.flatMap((names, i) =>
    names.flatMap((n) => [[n, i + 1] as const, [`${n}.`, i + 1] as const]),
  ),
);

/** Unit words after a number (`7 days`, `48 h`). */
export const units: ReadonlyMap<string, Unit> = new Map<string, Unit>([
  ...(['min', 'mins', 'minute', 'minutes'] as const).map((w) => [w, 'minute'] as const),
  ...(['h', 'hr', 'hrs', 'hour', 'hours'] as const).map((w) => [w, 'hour'] as const),
  ...(['d', 'day', 'days'] as const).map((w) => [w, 'day'] as const),
  ...(['w', 'wk', 'wks', 'week', 'weeks'] as const).map((w) => [w, 'week'] as const),
  ...(['mo', 'mos', 'month', 'months'] as const).map((w) => [w, 'month'] as const),
  ...(['q', 'quarter', 'quarters'] as const).map((w) => [w, 'quarter'] as const),
  ...(['y', 'yr', 'yrs', 'year', 'years'] as const).map((w) => [w, 'year'] as const),
]);

/** Suffixes of the glued shorthand `48h`, `10d`, `3w`, `15m` (minutes), `6mo`, `1y`. */
export const shorthandUnits: ReadonlyMap<string, Unit> = new Map<string, Unit>([
  ['m', 'minute'],
  ['min', 'minute'],
  ['mins', 'minute'],
  ['h', 'hour'],
  ['hr', 'hour'],
  ['hrs', 'hour'],
  ['d', 'day'],
  ['w', 'week'],
  ['wk', 'week'],
  ['wks', 'week'],
  ['mo', 'month'],
  ['q', 'quarter'],
  ['y', 'year'],
  ['yr', 'year'],
  ['yrs', 'year'],
]);

export const numberWords: ReadonlyMap<string, number> = new Map([
  ['a', 1],
  ['an', 1],
  ['one', 1],
  ['two', 2],
  ['three', 3],
  ['four', 4],
  ['five', 5],
  ['six', 6],
  ['seven', 7],
  ['eight', 8],
  ['nine', 9],
  ['ten', 10],
  ['eleven', 11],
  ['twelve', 12],
]);

/**
 * Words whose misspellings are reported as a time error instead of becoming a phrase database.
 * Only long, distinctive words: a short one (`may`, `mar`, `day`) is too close to real names.
 */
export const misspellableWords: readonly string[] = [
  'yesterday',
  'tomorrow',
  'today',
  ...fullWeekdays,
  'january',
  'february',
  'august',
  'september',
  'october',
  'november',
  'december',
  'quarter',
  'since',
  'through',
  'between',
];

/** Unit words whose misspelling after `last`, `past`, `this` or `next` is reported. */
export const misspellableUnits: readonly string[] = [
  'minutes',
  'hours',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'quarter',
  'year',
  'years',
];

/**
 * The stated hours of the parts of a day (`this morning`, `yesterday afternoon`, `last night`), in
 * the zone, start inclusive, end exclusive; `night` runs into the next day (18:00 to 06:00).
 */
export const partsOfDay = {
  morning: { from: 6, to: 12 },
  afternoon: { from: 12, to: 18 },
  evening: { from: 18, to: 24 },
  night: { from: 18, to: 30 },
} as const satisfies Record<string, { from: number; to: number }>;

export type PartOfDay = keyof typeof partsOfDay;

/** Weekday names written in full, which stand alone as a time; abbreviations do not. */
export const fullNames: ReadonlySet<string> = new Set([
  ...fullWeekdays,
  ...monthNames.map((names) => names[names.length - 1] as string),
]);
