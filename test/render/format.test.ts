import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanText,
  compactNumber,
  escapeMrkdwn,
  formatDatabases,
  formatDayRange,
  formatDuration,
  formatElapsed,
  formatWindow,
  neutralizeMrkdwn,
  slackDate,
  truncate,
  truncateMrkdwn,
  unescapeMrkdwn,
  windowWords,
} from '../../src/render/format.ts';

describe('compactNumber', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1K'],
    [1049, '1K'],
    [1050, '1.1K'],
    [1234, '1.2K'],
    [12_345, '12.3K'],
    [100_000, '100K'],
    [999_949, '999.9K'],
    [999_950, '1M'],
    [1_500_000, '1.5M'],
    [2_000_000_000, '2B'],
    [3_400_000_000_000, '3.4T'],
    [1_000_000_000_000_000, '1,000T'],
    [87.35, '87.4'],
    [999.96, '1K'],
    [0.04, '0'],
    [-1234, '-1.2K'],
    [Number.NaN, '–'],
    [Number.POSITIVE_INFINITY, '–'],
  ])('writes %d as %s', (value, expected) => {
    expect(compactNumber(value)).toBe(expected);
  });
});

describe('escapeMrkdwn', () => {
  it('escapes exactly &, < and > and round-trips through unescapeMrkdwn', () => {
    const raw = 'a & b <c> &amp; *d*';
    expect(escapeMrkdwn(raw)).toBe('a &amp; b &lt;c&gt; &amp;amp; *d*');
    expect(unescapeMrkdwn(escapeMrkdwn(raw))).toBe(raw);
  });
});

describe('cleanText', () => {
  it('collapses whitespace and newlines and drops control and bidi-override characters', () => {
    expect(cleanText('  Jane\n\tDoe\u0007 \u202Eevil\u202C  ')).toBe('Jane Doe evil');
  });

  it('replaces lone surrogates so the text stays valid UTF-16', () => {
    expect(cleanText('a\uD800b')).toBe('a\uFFFDb');
  });

  it('keeps emoji sequences joined with a zero-width joiner', () => {
    expect(cleanText('Dr 👩‍⚕️ Ann')).toBe('Dr 👩‍⚕️ Ann');
  });

  it('cleans a name with only one thing wrong, as the whole cleaning would', () => {
    const reference = (text: string): string =>
      text
        .toWellFormed()
        .replace(/[\u202A-\u202E\u2066-\u2069]/g, '')
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the cleaning under test strips them
        .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, '')
        .replace(/\s+/gu, ' ')
        .trim();
    for (const odd of [
      '\u00A0',
      ' ',
      '\uFEFF',
      '\u2028',
      '\t',
      '\u000B',
      '\u0085',
      '\uD800',
      '\u2066',
    ]) {
      for (const text of [`Jane${odd}Doe`, `${odd}Jane Doe`, `Jane Doe${odd}`, `Jane ${odd}Doe`]) {
        expect(cleanText(text), JSON.stringify(text)).toBe(reference(text));
      }
    }
    const units = fc.constantFrom(
      'a',
      'é',
      ' ',
      '\n',
      '\u00A0',
      '\u0007',
      '\u0085',
      '\u202E',
      '\uD83D',
      '\uDE00',
      '😀',
      '\uFEFF',
    );
    fc.assert(
      fc.property(fc.string({ unit: units, maxLength: 12 }), (text) => {
        expect(cleanText(text)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('neutralizeMrkdwn', () => {
  it.each([
    ['*bold*', '∗bold∗'],
    ['_italic_', 'ˍitalicˍ'],
    ['~strike~', '∼strike∼'],
    ['`code`', 'ˋcodeˋ'],
    ['<!channel>', '&lt;!channel&gt;'],
    ['<@U123>', '&lt;@U123&gt;'],
    ['<http://evil|click>', '&lt;http∶//evil|click&gt;'],
    ['https://evil.example', 'https∶//evil.example'],
    ['jane_doe', 'jane_doe'],
    ['@_jane_', '@ˍjaneˍ'],
    ['Tom & Jerry', 'Tom &amp; Jerry'],
    ['> quote\nnext', '&gt; quote next'],
  ])('shows %j literally as %j', (input, expected) => {
    expect(neutralizeMrkdwn(input)).toBe(expected);
  });
});

describe('truncate', () => {
  it('leaves short text alone and ends cut text with an ellipsis within the limit', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe('abc…');
  });

  it('never splits a surrogate pair', () => {
    const cut = truncate('ab😀cd', 4);
    expect(cut).toBe('ab…');
    expect(cut.toWellFormed()).toBe(cut);
  });
});

describe('truncateMrkdwn', () => {
  it('cuts before an entity rather than inside it', () => {
    expect(truncateMrkdwn('abc &amp; def', 7)).toBe('abc…');
  });

  it('cuts before a link token rather than inside it', () => {
    expect(truncateMrkdwn('see <https://x.com/jane|@jane> now', 20)).toBe('see…');
  });

  it('keeps complete tokens before the cut', () => {
    expect(truncateMrkdwn('<https://a.b|x> and more text here', 22)).toBe('<https://a.b|x> and m…');
  });
});

describe('formatDatabases', () => {
  it('writes databases as they would be typed: phrases and spaced group names quoted', () => {
    expect(
      formatDatabases(['#hcsm', 'breast cancer', '4711', 'group:Oncology', 'group:Rare Diseases']),
    ).toBe('#hcsm, "breast cancer", 4711, group:Oncology, group:"Rare Diseases"');
  });
});

const newYorkWeek = {
  start: '2026-11-14T00:00:00-05:00',
  end: '2026-11-21T00:00:00-05:00',
  timezone: 'America/New_York',
};

describe('slackDate', () => {
  it('writes a date token with a fallback in the query zone', () => {
    expect(slackDate(newYorkWeek.start, 'America/New_York')).toBe(
      '<!date^1794632400^{date_short_pretty} {time}|Nov 14, 2026 00:00 EST>',
    );
  });

  it('writes the fallback in the query zone, not the offset of the string', () => {
    expect(slackDate('2026-11-14T05:00:00Z', 'Asia/Kolkata')).toBe(
      '<!date^1794632400^{date_short_pretty} {time}|Nov 14, 2026 10:30 GMT+5:30>',
    );
  });

  it('falls back to the offset in the string when the zone is not a zone', () => {
    expect(slackDate('2026-11-14T00:00:00-05:00', 'Not/AZone')).toBe(
      '<!date^1794632400^{date_short_pretty} {time}|Nov 14, 2026 00:00 UTC-5>',
    );
  });
});

describe('formatWindow', () => {
  const now = new Date('2026-11-21T15:30:00Z');

  it('leaves the year out when the window is in the current year', () => {
    expect(formatWindow(newYorkWeek, now)).toBe('Nov 14 00:00 to Nov 21 00:00 EST');
  });

  it('shows years without a reference instant or for another year', () => {
    expect(formatWindow(newYorkWeek)).toBe('Nov 14, 2026 00:00 to Nov 21, 2026 00:00 EST');
    expect(formatWindow(newYorkWeek, new Date('2027-01-02T00:00:00Z'))).toBe(
      'Nov 14, 2026 00:00 to Nov 21, 2026 00:00 EST',
    );
  });

  it('names the zone at each end when a DST change falls inside the window', () => {
    const window = {
      start: '2026-10-26T00:00:00-04:00',
      end: '2026-11-02T00:00:00-05:00',
      timezone: 'America/New_York',
    };
    expect(formatWindow(window, now)).toBe('Oct 26 00:00 EDT to Nov 2 00:00 EST');
  });

  it('uses the GMT offset for zones without a common abbreviation', () => {
    const window = {
      start: '2026-09-01T00:00:00+09:00',
      end: '2026-09-08T00:00:00+09:00',
      timezone: 'Asia/Tokyo',
    };
    expect(formatWindow(window, now)).toBe('Sep 1 00:00 to Sep 8 00:00 GMT+9');
  });
});

describe('formatDayRange', () => {
  it('writes month and day of each end, a window ending at midnight ending the day before', () => {
    expect(formatDayRange(newYorkWeek)).toBe('Nov 14–Nov 20');
    expect(formatDayRange({ ...newYorkWeek, end: '2026-11-21T10:30:00-05:00' })).toBe(
      'Nov 14–Nov 21',
    );
  });

  it('writes one whole day alone', () => {
    expect(formatDayRange({ ...newYorkWeek, start: '2026-11-20T00:00:00-05:00' })).toBe('Nov 20');
  });

  it('adds years when the window crosses a new year', () => {
    expect(
      formatDayRange({
        start: '2025-12-28T00:00:00Z',
        end: '2026-01-04T00:00:00Z',
        timezone: 'UTC',
      }),
    ).toBe('Dec 28, 2025–Jan 3, 2026');
  });
});

describe('windowWords', () => {
  const now = new Date('2026-11-21T15:30:00Z');

  it.each([
    ['a week of whole days', newYorkWeek, 'Nov 14 – Nov 20, whole days, EST'],
    [
      'one whole day across the US fall-back (25 hours)',
      {
        start: '2026-11-01T00:00:00-04:00',
        end: '2026-11-02T00:00:00-05:00',
        timezone: 'America/New_York',
      },
      'Nov 1, whole day, EDT',
    ],
    [
      'whole days across the US spring-forward',
      {
        start: '2026-03-01T00:00:00-05:00',
        end: '2026-03-15T00:00:00-04:00',
        timezone: 'America/New_York',
      },
      'Mar 1 – Mar 14, whole days, EST/EDT',
    ],
    [
      'whole days at a :45 offset',
      {
        start: '2026-10-01T00:00:00+05:45',
        end: '2026-11-01T00:00:00+05:45',
        timezone: 'Asia/Kathmandu',
      },
      'Oct 1 – Oct 31, whole days, GMT+5:45',
    ],
    [
      'whole days across a new year',
      { start: '2025-12-20T00:00:00Z', end: '2026-01-06T00:00:00Z', timezone: 'UTC' },
      'Dec 20, 2025 – Jan 5, 2026, whole days, UTC',
    ],
    [
      'a window ending at the current minute, by its exact ends',
      { ...newYorkWeek, end: '2026-11-21T10:30:00-05:00' },
      'Nov 14 00:00 to Nov 21 10:30 EST',
    ],
  ])('writes %s as %j', (_, window, words) => {
    expect(windowWords(window, now)).toBe(words);
  });

  it('names the year once the same window is asked about in another year', () => {
    expect(windowWords(newYorkWeek, now)).toBe('Nov 14 – Nov 20, whole days, EST');
    expect(windowWords(newYorkWeek, new Date('2027-02-01T12:00:00Z'))).toBe(
      'Nov 14, 2026 – Nov 20, 2026, whole days, EST',
    );
    expect(windowWords(newYorkWeek, now)).toBe('Nov 14 – Nov 20, whole days, EST');
  });

  it('reads the year in the window’s zone on new year’s eve, the same window asked twice', () => {
    // Kiritimati is UTC+14: at 09:00 UTC on Dec 31 it is 23:00 there, at 11:00 UTC already 2027.
    const kiritimati = {
      start: '2026-12-30T00:00:00+14:00',
      end: '2026-12-31T00:00:00+14:00',
      timezone: 'Pacific/Kiritimati',
    };
    expect(windowWords(kiritimati, new Date('2026-12-31T09:00:00Z'))).toBe(
      'Dec 30, whole day, GMT+14',
    );
    expect(windowWords(kiritimati, new Date('2026-12-31T11:00:00Z'))).toBe(
      'Dec 30, 2026, whole day, GMT+14',
    );
  });
});

describe('formatDuration', () => {
  it.each([
    [1, '1 second'],
    [12_000, '12 seconds'],
    [59_000, '59 seconds'],
    [59_001, '1 minute'],
    [60_000, '1 minute'],
    [125_000, '3 minutes'],
    [3 * 3_600_000, 'about 3 hours'],
  ])('writes %d ms as %s', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });
});

describe('formatElapsed', () => {
  it.each([
    [0, '1 second'],
    [8_000, '8 seconds'],
    [8_004, '8 seconds'],
    [8_999, '8 seconds'],
    [59_999, '59 seconds'],
    [60_000, '1 minute'],
    [125_000, '2 minutes'],
    [3 * 3_600_000 + 59_000, 'about 3 hours'],
  ])('writes %d ms already spent as %s, rounding down', (ms, expected) => {
    expect(formatElapsed(ms)).toBe(expected);
  });
});
