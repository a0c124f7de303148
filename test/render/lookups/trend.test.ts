import { describe, expect, it } from 'vitest';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { DataVisualizationBlock, SlackMessage } from '../../../src/model/message.ts';
import { withoutNewBlocks } from '../../../src/render/blocks.ts';
import { actionIds } from '../../../src/render/ids.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import { decodeShareValue, encodeShareValue } from '../../../src/render/lookups/answer.ts';
import {
  type PeriodRanking,
  periodLabels,
  renderTrend,
} from '../../../src/render/lookups/trend.ts';
import { renderTrendCsv } from '../../../src/render/lookups/trend-csv.ts';
import { type Period, recentPeriods } from '../../../src/time/periods.ts';
import { parseCsv } from '../../helpers/csv.ts';
import { influencer, texts } from '../helpers.ts';

const now = new Date('2026-11-21T15:00:00Z');
const zone = 'America/New_York';
const weeks = recentPeriods('week', 4, now, zone);

/** A period's ranking of these handles, in this order, with these mentions. */
function ranked(period: Period, people: readonly (readonly [string, number])[]): PeriodRanking {
  return {
    period,
    result: {
      influencers: people.map(([screenName, mentions], index) =>
        influencer({
          rank: index + 1,
          screenName,
          displayName: screenName.toUpperCase(),
          metrics: { mentions },
        }),
      ),
    },
  };
}

const trend: LookupRequest = {
  databases: ['#hcsm'],
  start: weeks[0]?.start ?? '',
  end: weeks.at(-1)?.end ?? '',
  timezone: zone,
  top: 3,
  trend: { unit: 'week' },
};

/** Four weeks: carol climbs from outside the top 500 to #1, bob stays near the top. */
const rankings: PeriodRanking[] = [
  ranked(weeks[0] as Period, [
    ['alice', 90],
    ['bob', 80],
    ['dave', 70],
  ]),
  ranked(weeks[1] as Period, [
    ['bob', 85],
    ['alice', 60],
    ['carol', 40],
  ]),
  ranked(weeks[2] as Period, [
    ['carol', 100],
    ['bob', 95],
    ['erin', 20],
  ]),
  ranked(weeks[3] as Period, [
    ['Carol', 50],
    ['bob', 45],
    ['alice', 30],
    ['dave', 10],
  ]),
];

function blockOf<T extends SlackMessage['blocks'][number]['type']>(
  message: SlackMessage,
  type: T,
): Extract<SlackMessage['blocks'][number], { type: T }> | undefined {
  return message.blocks.find((block) => block.type === type) as
    | Extract<SlackMessage['blocks'][number], { type: T }>
    | undefined;
}

const cellTexts = (message: SlackMessage): string[][] => {
  const table = blockOf(message, 'data_table');
  return (table?.rows ?? []).map((row) => row.map((cell) => ('text' in cell ? cell.text : '')));
};

describe('periodLabels', () => {
  it('names weeks by their Monday and marks the current one', () => {
    expect(periodLabels(weeks, 'week', zone)).toEqual([
      'Oct 26',
      'Nov 2',
      'Nov 9',
      'Nov 16 · so far',
    ]);
  });

  it('adds the year when the periods span two, and names months alone', () => {
    const months = recentPeriods('month', 3, new Date('2027-01-15T12:00:00Z'), 'UTC');
    expect(periodLabels(months, 'month', 'UTC')).toEqual([
      "Nov '26",
      "Dec '26",
      "Jan '27 · so far",
    ]);
    const days = recentPeriods('day', 2, new Date('2026-11-21T15:00:00Z'), 'UTC');
    expect(periodLabels(days, 'day', 'UTC')).toEqual(['Nov 20', 'Nov 21 · so far']);
  });
});

describe('renderTrend', () => {
  const message = renderTrend(trend, rankings, { actions: true, shareable: true });

  it('says the periods, what moved, and who the latest top N are', () => {
    expect(texts(message.blocks).slice(0, 3)).toEqual([
      'Weekly trend for #hcsm',
      '4 weeks, Oct 26–Nov 21, the last one so far · ranked by mentions · queried in America/New_York',
      '*@Carol* leads the week of Nov 16 (so far) with 50 mentions.\n' +
        'Biggest climb since the week of Oct 26: *@Carol*, outside the top 500 → #1.',
    ]);
    expect(message.text).toBe('Weekly trend for #hcsm, Oct 26–Nov 21: @Carol, @bob, @alice');
  });

  it('shows a category named like a link as text in the "Who:" line', () => {
    const week = weeks.at(-1) as Period;
    const linked: PeriodRanking = {
      period: week,
      result: {
        influencers: [
          influencer({
            rank: 1,
            screenName: 'alice',
            stakeholderCategories: [{ name: 'https://evil.example' }],
            metrics: { mentions: 5 },
          }),
        ],
      },
    };
    const shown = texts(renderTrend(trend, [linked], {}).blocks);
    expect(shown).toContain('Who: https∶//evil.example 1');
  });

  it('says who a filter kept and what ranks them when this app chose, not the service', () => {
    const chosen: LookupRequest = {
      ...trend,
      stakeholders: { include: ['Doctor'], exclude: ['Org. Pharma'] },
      orderBy: 'followers',
    };
    const pooled = rankings.map(({ period, result }) => ({
      period,
      result: { ...result, selection: { pool: 500, matched: result.influencers.length } },
    }));
    expect(texts(renderTrend(chosen, pooled).blocks)[1]).toBe(
      '4 weeks, Oct 26–Nov 21, the last one so far · ranked by followers, among the top 500 by ' +
        "mentions · Doctors, excluding Pharma orgs among each week's top 500 by mentions · " +
        'queried in America/New_York',
    );
  });

  it('blames the filter when it kept nobody of any week the service ranked', () => {
    const kept = { ...trend, stakeholders: { include: ['Caregiver'], exclude: [] } };
    const none = rankings.map(({ period }) => ({
      period,
      result: { influencers: [], selection: { pool: 500, matched: 0 } },
    }));
    const message = renderTrend(kept, none);
    expect(message.text).toBe(
      "The filter (Caregivers) kept nobody of any week's top 500 by mentions of #hcsm, Oct 26–Nov 21.",
    );
    expect(texts(message.blocks).at(-1)).toBe(
      `${message.text} Try without it, or a longer window (for example \`last 12 weeks weekly\`).`,
    );
  });

  it('keeps within Block Kit whatever filter a button carries back', () => {
    const names = (letter: string) =>
      Array.from({ length: 20 }, (_, i) => `${letter}${i}`.repeat(16));
    const carried = { ...trend, stakeholders: { include: names('a'), exclude: names('b') } };
    const message = renderTrend(carried, rankings, { actions: true });
    expect(checkBlockKitLimits(message)).toEqual([]);
    expect(texts(message.blocks)[1]?.length).toBeLessThanOrEqual(1200);
  });

  it('tables the latest top N by rank and metric in each week, – where not ranked', () => {
    expect(cellTexts(message)).toEqual([
      ['Influencer', 'Oct 26', 'Nov 2', 'Nov 9', 'Nov 16 · so far'],
      ['@Carol', '–', '#3 · 40', '#1 · 100', '#1 · 50'],
      ['@bob', '#2 · 80', '#1 · 85', '#2 · 95', '#2 · 45'],
      ['@alice', '#1 · 90', '#2 · 60', '–', '#3 · 30'],
    ]);
    const table = blockOf(message, 'data_table');
    expect(table?.rows[1]?.[2]).toEqual({ type: 'raw_number', value: 3, text: '#3 · 40' });
    expect(table?.caption).toBe(
      "Rank · mentions each week of the top 3 in the week of Nov 16 (so far); – not in that week's top 500 · #hcsm",
    );
  });

  it("draws the top five's metric per week as lines, 0 where not ranked", () => {
    const chart = blockOf(message, 'data_visualization') as DataVisualizationBlock;
    expect(chart.title).toBe('Mentions per week, top 3 · #hcsm');
    expect(chart.chart).toEqual({
      type: 'line',
      series: [
        { name: '@Carol', data: [0, 40, 100, 50] },
        { name: '@bob', data: [80, 85, 95, 45] },
        { name: '@alice', data: [90, 60, 0, 30] },
      ].map(({ name, data }) => ({
        name,
        data: data.map((value, index) => ({
          label: ['Oct 26', 'Nov 2', 'Nov 9', 'Nov 16 · so far'][index],
          value,
        })),
      })),
      axis_config: {
        categories: ['Oct 26', 'Nov 2', 'Nov 9', 'Nov 16 · so far'],
        x_label: 'Week (from Monday)',
        y_label: 'Mentions',
      },
    });
  });

  it('offers the CSV file and sharing, carrying the trend, and nothing that would lose it', () => {
    const actions = blockOf(message, 'actions');
    const buttons = (actions?.elements ?? []).map((button) =>
      'action_id' in button ? button.action_id : '',
    );
    expect(buttons).toEqual([actionIds.answerExport, actionIds.shareAnswer]);
    const value =
      actions?.elements[0] && 'value' in actions.elements[0] ? actions.elements[0].value : '';
    expect(decodeShareValue(value ?? '')).toEqual(trend);
  });

  it('keeps every limit, and without the new blocks shows ranks and sparklines', () => {
    expect(checkBlockKitLimits(message)).toEqual([]);
    const plain = withoutNewBlocks(message);
    expect(checkBlockKitLimits(plain)).toEqual([]);
    const code = texts(plain.blocks).filter((text) => text.includes('```'));
    expect(code).toHaveLength(2);
    expect(code[0]).toContain('@Carol  ·▄█▅  50');
    expect(code[1]).toContain('Influencer  Oct 26  Nov 2  Nov 9  Nov 16');
    expect(code[1]).toContain('@Carol           –     #3     #1      #1');
  });

  it('takes its people from the latest week anyone ranks in', () => {
    const quiet = [
      ...rankings.slice(0, 3),
      { period: weeks[3] as Period, result: { influencers: [] } },
    ];
    const answer = renderTrend(trend, quiet);
    expect(texts(answer.blocks)[2]).toBe(
      '*@carol* leads the week of Nov 9 with 100 mentions.\n' +
        'Biggest climb since the week of Oct 26: *@carol*, outside the top 500 → #1.',
    );
    expect(cellTexts(answer)[1]).toEqual(['@carol', '–', '#3 · 40', '#1 · 100', '–']);
  });

  it('says nobody ranks in any week, with how to ask differently', () => {
    const empty = renderTrend(
      trend,
      weeks.map((period) => ({ period, result: { influencers: [] } })),
    );
    expect(empty.text).toBe('No influencers found for #hcsm in any week of Oct 26–Nov 21.');
    expect(empty.blocks.some((block) => block.type === 'data_table')).toBe(false);
    expect(checkBlockKitLimits(empty)).toEqual([]);
  });

  it('keeps the latest 19 of 20 periods in the table, and all 20 in the chart', () => {
    const days = recentPeriods('day', 20, now, zone);
    const request: LookupRequest = {
      ...trend,
      start: days[0]?.start ?? '',
      end: days.at(-1)?.end ?? '',
      trend: { unit: 'day' },
    };
    const answer = renderTrend(
      request,
      days.map((period) => ranked(period, [['alice', 5]])),
    );
    expect(cellTexts(answer)[0]).toHaveLength(20);
    expect(cellTexts(answer)[0]?.[1]).toBe('Nov 3');
    expect(blockOf(answer, 'data_table')?.caption).toMatch(
      /\(the first 1 in the chart and the CSV\)$/,
    );
    const chart = blockOf(answer, 'data_visualization') as DataVisualizationBlock;
    expect(chart.chart.type === 'line' && chart.chart.axis_config.categories).toHaveLength(20);
    expect(checkBlockKitLimits(answer)).toEqual([]);
  });

  it('fits a hundred long names in the message, saying how many more the CSV holds', () => {
    const days = recentPeriods('day', 20, now, zone);
    const request: LookupRequest = {
      ...trend,
      top: 100,
      start: days[0]?.start ?? '',
      end: days.at(-1)?.end ?? '',
      trend: { unit: 'day' },
    };
    const many = Array.from(
      { length: 100 },
      (_, i) => [`${'x'.repeat(12)}${i}`, 1_234_567 - i] as const,
    );
    const answer = renderTrend(
      request,
      days.map((period) => ranked(period, many)),
    );
    expect(checkBlockKitLimits(answer)).toEqual([]);
    const shown = (blockOf(answer, 'data_table')?.rows.length ?? 1) - 1;
    expect(shown).toBeLessThan(100);
    expect(texts(answer.blocks)).toContain(
      `…and ${100 - shown} more not shown here: Export CSV for all`,
    );
  });
});

describe('renderTrendCsv', () => {
  it('writes one row per person and period: every week’s top N, blank where not ranked', () => {
    const file = renderTrendCsv(trend, rankings);
    const [header, ...rows] = parseCsv(file.content);
    expect(header?.slice(0, 7)).toEqual([
      'Period start',
      'Period end',
      'Partial',
      'Rank',
      'Display name',
      'Handle',
      'Profile URL',
    ]);
    const handles = [...new Set(rows.map((row) => row[5]))];
    expect(handles).toEqual(['Carol', 'bob', 'alice', 'erin', 'dave']);
    expect(rows).toHaveLength(5 * 4);
    const carol = rows.filter((row) => row[5] === 'Carol');
    expect(carol.map((row) => [row[0], row[2], row[3], row[8]])).toEqual([
      [weeks[0]?.start, 'no', '', ''],
      [weeks[1]?.start, 'no', '3', '40'],
      [weeks[2]?.start, 'no', '1', '100'],
      [weeks[3]?.start, 'yes', '1', '50'],
    ]);
    expect(file.filename).toBe(
      'influencers-weekly_hcsm_2026-10-26T04-00-00Z_2026-11-21T15-00-00Z_America-New_York_mentions.csv',
    );
    expect(file.title).toBe('Weekly ranks of 5 people for #hcsm, ranked by mentions');
  });
});

describe('the button value of a trend or a person', () => {
  it('carries the unit and the handle, and refuses a handle that is not one', () => {
    const person: LookupRequest = { ...trend, person: 'DrFerreiraI' };
    expect(decodeShareValue(encodeShareValue(person))).toEqual(person);
    const value = JSON.parse(encodeShareValue(person)) as Record<string, unknown>;
    expect(value).toMatchObject({ r: 'week', u: 'DrFerreiraI' });
    expect(decodeShareValue(JSON.stringify({ ...value, u: 'a b' }))).toBeUndefined();
    expect(decodeShareValue(JSON.stringify({ ...value, r: 'year' }))).toBeUndefined();
  });
});
