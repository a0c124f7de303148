/**
 * What was meant by the requests of the newcomer corpus (batches B calendar comparisons, E windows
 * and dates, F zones, G metrics and counts) that were read wrongly or refused unhelpfully: each
 * read at the instant it was sent, in the zone its console was started in.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ChoicesError, ParseError } from '../../../src/errors.ts';
import { type LookupRequest, parseLookup } from '../../../src/parsing/index.ts';

interface Sent {
  readonly zone: string;
  readonly at: string;
  /** As typed: `/influencers …` in a channel, bare text in the DM. */
  readonly request: string;
}

function read({ zone, at, request }: Sent): LookupRequest | ParseError {
  const slash = request.startsWith('/influencers ');
  const text = slash ? request.slice('/influencers '.length) : request;
  return parseLookup(text, { now: new Date(at), zone, conversation: !slash });
}

function readOk(sent: Sent): LookupRequest {
  const result = read(sent);
  if (result instanceof ParseError) throw new Error(`${sent.request}: ${result.message}`);
  return result;
}

/** `start → end` as wall clocks of the request's zone. */
function span(start: string, end: string, zone: string): string {
  const local = (iso: string) => DateTime.fromISO(iso).setZone(zone).toFormat('yyyy-MM-dd HH:mm');
  return `${local(start)} → ${local(end)}`;
}

interface Meant {
  readonly window: string;
  readonly compared?: string;
  readonly databases?: readonly string[];
  readonly timezone?: string;
  readonly more?: Partial<LookupRequest>;
}

function expectMeant(sent: Sent, meant: Meant): void {
  const request = readOk(sent);
  expect(span(request.start, request.end, request.timezone)).toBe(meant.window);
  const compared =
    request.compare === undefined
      ? undefined
      : span(request.compare.start, request.compare.end, request.timezone);
  expect(compared).toBe(meant.compared);
  if (meant.databases !== undefined) expect(request.databases).toEqual(meant.databases);
  if (meant.timezone !== undefined) expect(request.timezone).toBe(meant.timezone);
  if (meant.more !== undefined) expect(request).toMatchObject(meant.more);
}

const london = (at: string, request: string): Sent => ({ zone: 'Europe/London', at, request });
const berlin = (request: string): Sent => ({
  zone: 'Europe/Berlin',
  at: '2026-11-28T04:42:18Z',
  request,
});
const utc = (request: string): Sent => ({ zone: 'UTC', at: '2026-11-28T04:42:20Z', request });
const losAngeles = (request: string): Sent => ({
  zone: 'America/Los_Angeles',
  at: '2026-11-28T04:42:23Z',
  request,
});

const b10 = '2026-11-28T04:42:10Z';
const b11 = '2026-11-28T04:42:11Z';
const monthSoFar = {
  window: '2026-11-01 00:00 → 2026-11-28 04:42',
  compared: '2026-10-01 00:00 → 2026-10-28 04:42',
};
const october = { window: '2026-10-01 00:00 → 2026-11-01 00:00' };
const lastWeek = { window: '2026-11-16 00:00 → 2026-11-23 00:00' };
const lastWeekLA = { start: '2026-11-16T00:00:00-08:00', end: '2026-11-23T00:00:00-08:00' };

describe('newcomer corpus, B: calendar comparisons (Europe/London, 2026-11-28 04:42 UTC)', () => {
  it.each<[string, Sent, Meant]>([
    [
      'B-010 mtd vs last month: like for like',
      london(b10, '/influencers #hcsm mtd vs last month'),
      monthSoFar,
    ],
    [
      'B-011 vs same period last month',
      london(b10, '/influencers #hcsm month to date vs same period last month'),
      monthSoFar,
    ],
    [
      'B-012 qtd compared to last quarter: like for like',
      london(b10, '/influencers #hcsm qtd compared to last quarter'),
      {
        window: '2026-10-01 00:00 → 2026-11-28 04:42',
        compared: '2026-07-01 00:00 → 2026-08-28 04:42',
      },
    ],
    [
      'B-014 wtd vs last week: like for like',
      london(b10, '/influencers #hcsm wtd vs last week'),
      {
        window: '2026-11-23 00:00 → 2026-11-28 04:42',
        compared: '2026-11-16 00:00 → 2026-11-21 04:42',
      },
    ],
    [
      'B-020 the 7 days before',
      london(b10, '/influencers #hcsm last 7 days compared with the 7 days before'),
      {
        window: '2026-11-21 04:42 → 2026-11-28 04:42',
        compared: '2026-11-14 04:42 → 2026-11-21 04:42',
      },
    ],
    [
      'B-022 same week last year: ISO week 47 of 2025',
      london(b10, '/influencers #hcsm last week vs same week last year'),
      { ...lastWeek, compared: '2025-11-17 00:00 → 2025-11-24 00:00' },
    ],
    [
      'B-028 MoM',
      london(b10, '/influencers #hcsm last month MoM'),
      { ...october, compared: '2026-09-01 00:00 → 2026-10-01 00:00', databases: ['#hcsm'] },
    ],
    [
      'B-029 QoQ',
      london(b10, '/influencers #hcsm last quarter QoQ'),
      {
        window: '2026-07-01 00:00 → 2026-10-01 00:00',
        compared: '2026-04-01 00:00 → 2026-07-01 00:00',
        databases: ['#hcsm'],
      },
    ],
    [
      'B-030 WoW',
      london(b10, '/influencers #hcsm last week WoW'),
      { ...lastWeek, compared: '2026-11-09 00:00 → 2026-11-16 00:00', databases: ['#hcsm'] },
    ],
    [
      'B-031 vs last month last year',
      london(b10, '/influencers #hcsm last month vs last month last year'),
      { ...october, compared: '2025-10-01 00:00 → 2025-11-01 00:00' },
    ],
    [
      'B-033 October vs October last year',
      london(b10, '/influencers "breast cancer" October vs October last year'),
      { ...october, compared: '2025-10-01 00:00 → 2025-11-01 00:00', databases: ['breast cancer'] },
    ],
    [
      'B-035 yesterday vs same day last week',
      london(b10, '/influencers #hcsm yesterday vs same day last week'),
      {
        window: '2026-11-27 00:00 → 2026-11-28 00:00',
        compared: '2026-11-20 00:00 → 2026-11-21 00:00',
      },
    ],
    [
      'B-036 last month compared to previous period (the chart: test/render/lookups/answer-views)',
      london(b10, '/influencers #hcsm last month compared to previous period chart'),
      {
        ...october,
        compared: '2026-09-01 00:00 → 2026-10-01 00:00',
        more: { presentation: 'chart' },
      },
    ],
    [
      'B-037 2025 vs 2024',
      london(b10, '/influencers #hcsm 2025 vs 2024'),
      {
        window: '2025-01-01 00:00 → 2026-01-01 00:00',
        compared: '2024-01-01 00:00 → 2025-01-01 00:00',
        databases: ['#hcsm'],
      },
    ],
    [
      'B-039 compare to September (DM)',
      london(b11, 'how does #hcsm last month compare to September?'),
      { ...october, compared: '2026-09-01 00:00 → 2026-10-01 00:00', databases: ['#hcsm'] },
    ],
    [
      'B-041 change from Q2 to Q3 (DM)',
      london(b11, 'did the top voices in #oncology change from Q2 to Q3?'),
      {
        window: '2026-07-01 00:00 → 2026-10-01 00:00',
        compared: '2026-04-01 00:00 → 2026-07-01 00:00',
        databases: ['#oncology'],
      },
    ],
    [
      'B-042 this month so far vs last month (DM)',
      london(b11, '#hcsm this month so far vs last month'),
      monthSoFar,
    ],
    [
      'B-043 compare last quarter to the quarter before (DM)',
      london(b11, 'compare #pharma last quarter to the quarter before'),
      {
        window: '2026-07-01 00:00 → 2026-10-01 00:00',
        compared: '2026-04-01 00:00 → 2026-07-01 00:00',
        databases: ['#pharma'],
      },
    ],
    [
      'B-046 doctors only',
      london(b11, '/influencers #hcsm last month vs previous month doctors only'),
      {
        ...october,
        compared: '2026-09-01 00:00 → 2026-10-01 00:00',
        databases: ['#hcsm'],
        more: { stakeholders: { include: ['Doctor'], exclude: [] } },
      },
    ],
    [
      'B-047 v for versus',
      london(b11, '/influencers #hcsm last month v previous month'),
      { ...october, compared: '2026-09-01 00:00 → 2026-10-01 00:00' },
    ],
    [
      'B-049 vs 2 weeks ago: the week before last',
      london(b11, '/influencers #hcsm last week vs 2 weeks ago'),
      { ...lastWeek, compared: '2026-11-09 00:00 → 2026-11-16 00:00' },
    ],
  ])('%s', (_, sent, meant) => expectMeant(sent, meant));
});

describe('newcomer corpus, E: windows and dates (Europe/Berlin, 2026-11-28 04:42 UTC)', () => {
  it.each<[string, Sent, Meant]>([
    [
      'E-009 KW 46',
      berlin('/influencers #hcsm KW 46'),
      { window: '2026-11-09 00:00 → 2026-11-16 00:00', databases: ['#hcsm'] },
    ],
    [
      'E-019 rolling 30 days',
      berlin('/influencers #hcsm rolling 30 days'),
      { window: '2026-10-29 05:42 → 2026-11-28 05:42', databases: ['#hcsm'] },
    ],
    [
      'E-020 trailing 4 weeks',
      berlin('/influencers #hcsm trailing 4 weeks'),
      { window: '2026-10-31 05:42 → 2026-11-28 05:42', databases: ['#hcsm'] },
    ],
    [
      'E-035 between 1 and 15 October',
      berlin('/influencers #hcsm between 1 and 15 October'),
      { window: '2026-10-01 00:00 → 2026-10-16 00:00' },
    ],
    [
      'E-036 Oct 20-Nov 5 (DST: the range holds the end of summer time, Oct 25)',
      berlin('/influencers #hcsm Oct 20-Nov 5'),
      { window: '2026-10-20 00:00 → 2026-11-06 00:00', databases: ['#hcsm'] },
    ],
    [
      'E-045 yesterday 9-17h',
      berlin('/influencers #hcsm yesterday 9-17h'),
      { window: '2026-11-27 09:00 → 2026-11-27 17:00', databases: ['#hcsm'] },
    ],
    [
      'E-056 11/02/2026-11/08/2026',
      berlin('/influencers #hcsm 11/02/2026-11/08/2026'),
      { window: '2026-11-02 00:00 → 2026-11-09 00:00' },
    ],
    [
      'E-057 from the 1st to the 15th of October',
      berlin('/influencers #hcsm from the 1st to the 15th of October'),
      { window: '2026-10-01 00:00 → 2026-10-16 00:00' },
    ],
    [
      'E-058 1.-15. Oktober',
      berlin('/influencers #hcsm 1.-15. Oktober'),
      { window: '2026-10-01 00:00 → 2026-10-16 00:00' },
    ],
  ])('%s', (_, sent, meant) => expectMeant(sent, meant));

  it('E-002 3/11/2026 to 10/11/2026: no locale, so it asks, each reading a command that reads', () => {
    const sent = berlin('/influencers #hcsm 3/11/2026 to 10/11/2026');
    const error = read(sent);
    expect(error).toBeInstanceOf(ChoicesError);
    const commands = (error as ChoicesError).readings.map((reading) => reading.command);
    expect(commands).toEqual(['#hcsm 2026-11-03 to 2026-11-10', '#hcsm 2026-03-11 to 2026-10-11']);
    const windows = commands.map((command) => {
      const request = readOk({ ...sent, request: `/influencers ${command}` });
      return span(request.start, request.end, request.timezone);
    });
    expect(windows).toEqual([
      '2026-11-03 00:00 → 2026-11-11 00:00',
      '2026-03-11 00:00 → 2026-10-12 00:00',
    ]);
  });

  it.each([
    ['en-GB', '2026-11-03 00:00 → 2026-11-11 00:00'],
    ['de-DE', '2026-11-03 00:00 → 2026-11-11 00:00'],
    ['en-US', '2026-03-11 00:00 → 2026-10-12 00:00'],
  ])('E-002 3/11/2026 to 10/11/2026 with the Slack locale %s: read its way', (locale, window) => {
    const result = parseLookup('#hcsm 3/11/2026 to 10/11/2026', {
      now: new Date('2026-11-28T04:42:18Z'),
      zone: 'Europe/Berlin',
      locale,
    });
    if (result instanceof ParseError) throw result;
    expect(span(result.start, result.end, result.timezone)).toBe(window);
  });
});

describe('newcomer corpus, F: zones (UTC console, 2026-11-28 04:42 UTC)', () => {
  it.each<[string, Sent, Meant]>([
    [
      'F-013 AEST is UTC+10, Brisbane',
      utc('/influencers #hcsm last week in AEST'),
      { ...lastWeek, timezone: 'Australia/Brisbane' },
    ],
    [
      'F-029 a bare offset after the window',
      utc('/influencers #hcsm yesterday +05:30'),
      { window: '2026-11-27 00:00 → 2026-11-28 00:00', databases: ['#hcsm'] },
    ],
    [
      'F-031 tz=Europe/Madrid',
      utc('/influencers #hcsm yesterday tz=Europe/Madrid'),
      {
        window: '2026-11-27 00:00 → 2026-11-28 00:00',
        databases: ['#hcsm'],
        timezone: 'Europe/Madrid',
      },
    ],
  ])('%s', (_, sent, meant) => expectMeant(sent, meant));

  it('F-013 runs AEST at +10:00, F-029 at +05:30', () => {
    expect(readOk(utc('/influencers #hcsm last week in AEST')).start).toBe(
      '2026-11-16T00:00:00+10:00',
    );
    expect(readOk(utc('/influencers #hcsm yesterday +05:30')).start).toBe(
      '2026-11-27T00:00:00+05:30',
    );
  });
});

describe('newcomer corpus, G: metrics, counts, exports (America/Los_Angeles, 2026-11-28 04:42 UTC)', () => {
  it('G-001 by engagement: never read as mentions; the near counts offered as commands that run', () => {
    const sent = losAngeles('/influencers #oncology last month by engagement');
    const error = read(sent);
    expect(error).toBeInstanceOf(ChoicesError);
    expect((error as ChoicesError).readings.map((reading) => reading.meaning)).toEqual([
      'by mentions',
      'by retweets',
      'by replies',
    ]);
    for (const metric of ['mentions', 'retweets', 'replies']) {
      const command = `#oncology last month by ${metric}`;
      expect((error as ParseError).message).toContain(`\`${command}\``);
      expect(readOk({ ...sent, request: `/influencers ${command}` }).metric).toBe(metric);
    }
  });

  it.each<[string, Sent, Meant]>([
    [
      'G-017 top-15',
      losAngeles('/influencers #hcsm last week top-15'),
      { ...lastWeek, more: { top: 15 } },
    ],
    [
      'G-019 first 25',
      losAngeles('/influencers #hcsm last week first 25'),
      { ...lastWeek, databases: ['#hcsm'], more: { top: 25 } },
    ],
    [
      'G-032 pie chart of categories',
      losAngeles('/influencers #hcsm last week pie chart of categories'),
      { ...lastWeek, databases: ['#hcsm'], more: { presentation: 'category_chart' } },
    ],
  ])('%s', (_, sent, meant) => expectMeant(sent, meant));

  it.each<[string, Sent, Meant]>([
    [
      "G-038 'rare disease': single quotes name a phrase as double quotes do",
      losAngeles("/influencers 'rare disease' last month"),
      { ...october, databases: ['rare disease'] },
    ],
    [
      'G-047 group "Patient Advocates": the group, with a space for the colon',
      losAngeles('/influencers group "Patient Advocates" last month'),
      { ...october, databases: ['group:Patient Advocates'] },
    ],
  ])('%s', (_, sent, meant) => expectMeant(sent, meant));

  it('G-065 by reposts and replies: asks which ranking, each a command keeping #hcsm last week', () => {
    const sent = losAngeles('/influencers #hcsm last week by reposts and replies');
    const error = read(sent);
    expect(error).toBeInstanceOf(ChoicesError);
    const commands = (error as ChoicesError).readings.map((reading) => reading.command);
    expect(commands).toEqual(['#hcsm last week by retweets', '#hcsm last week by replies']);
    expect(
      commands.map((command) => readOk({ ...sent, request: `/influencers ${command}` })),
    ).toMatchObject([
      { ...lastWeekLA, databases: ['#hcsm'], metric: 'retweets' },
      { ...lastWeekLA, databases: ['#hcsm'], metric: 'replies' },
    ]);
  });
});

describe('newcomer corpus, who people are and metrics in other batches', () => {
  it.each<[string, Sent, Partial<LookupRequest>]>([
    [
      'A-031 KOLs: the influencers themselves, no filter',
      utc('/influencers #hcsm last week KOLs'),
      { databases: ['#hcsm'] },
    ],
    [
      'A-034 exclude pharma companies: everyone but pharma',
      utc('/influencers #pharma last week exclude pharma companies'),
      { stakeholders: { include: [], exclude: ['Org. Pharma'] } },
    ],
    [
      'A-035 non-pharma',
      utc('/influencers #hcsm last week non-pharma'),
      { databases: ['#hcsm'], stakeholders: { include: [], exclude: ['Org. Pharma'] } },
    ],
  ])('%s', (_, sent, meant) => {
    expect(readOk(sent)).toMatchObject(meant);
  });

  it('A-031 KOLs keep everyone: key opinion leaders are whom the ranking lists', () => {
    expect(readOk(utc('/influencers #hcsm last week KOLs')).stakeholders).toBeUndefined();
    expect(readOk(utc('top KOLs in #hcsm last week')).stakeholders).toBeUndefined();
  });

  it('A-047 in the last week: the past 7 days', () => {
    const request = readOk(utc('/influencers #hcsm in the last week, only doctors'));
    expect(span(request.start, request.end, 'UTC')).toBe('2026-11-21 04:42 → 2026-11-28 04:42');
  });

  it('refuses doctors excluding doctors: it would keep nobody', () => {
    const error = read(utc('/influencers #hcsm last week doctors excluding doctors'));
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toContain('keeps and leaves out the same people');
  });

  it('C-033 monthly by engagement: refused like G-001, never ranked by mentions', () => {
    const error = read(
      losAngeles('/influencers "clinical trials" monthly last 6 months by engagement'),
    );
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toContain('by retweets');
  });
});
