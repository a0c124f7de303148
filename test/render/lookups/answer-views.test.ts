import type { DataTableBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { Influencer, InfluencersResult } from '../../../src/analytics/types.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { DataVisualizationBlock, SlackMessage } from '../../../src/model/message.ts';
import { actionIds, blockIds } from '../../../src/render/ids.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import {
  actionsTooLongNote,
  decodeShareValue,
  encodeShareValue,
  renderAnswer,
} from '../../../src/render/lookups/answer.ts';
import { influencer, lookup, texts } from '../helpers.ts';

const request = lookup;

const compared: LookupRequest = {
  ...request,
  compare: { start: '2026-11-07T00:00:00-05:00', end: '2026-11-14T00:00:00-05:00' },
};

function person(
  rank: number,
  screenName: string,
  metrics: Influencer['metrics'],
  extra: Partial<Influencer> = {},
): Influencer {
  return influencer({ rank, screenName, metrics, ...extra });
}

const now: InfluencersResult = {
  influencers: [
    person(1, 'alice', { mentions: 900, impressions: 20_000 }, { displayName: 'Alice' }),
    person(2, 'bob', { mentions: 800, impressions: 9_000 }),
    person(3, 'carol', { mentions: 700, impressions: 30_000 }),
    person(4, 'dave', { mentions: 600 }),
  ],
};

const before: InfluencersResult = {
  influencers: [
    person(1, 'Bob', { mentions: 1000, impressions: 8_000 }),
    person(2, 'erin', { mentions: 500 }),
    person(3, 'carol', { mentions: 450, impressions: 31_000 }),
    person(4, 'alice', { mentions: 100, impressions: 2_000 }),
    person(5, 'frank', { mentions: 50 }),
  ],
};

function sections(message: SlackMessage): string[] {
  return message.blocks.flatMap((block) =>
    block.type === 'section' && block.text !== undefined ? [block.text.text] : [],
  );
}

function tableOf(message: SlackMessage): DataTableBlock | undefined {
  const table = message.blocks.find((block) => block.type === 'data_table');
  return table?.type === 'data_table' ? table : undefined;
}

function chartOf(message: SlackMessage): DataVisualizationBlock | undefined {
  const chart = message.blocks.find((block) => block.type === 'data_visualization');
  return chart?.type === 'data_visualization' ? chart : undefined;
}

const cellTexts = (table: DataTableBlock | undefined): string[][] =>
  (table?.rows ?? []).map((row) => row.map((cell) => ('text' in cell ? cell.text : '')));

describe('the compared answer', () => {
  const message = renderAnswer(compared, now, { previous: before });

  it('says what it is compared with and what it is ranked by', () => {
    expect(texts(message.blocks)[1]).toBe(
      'Window: Nov 14, 2026 – Nov 20, 2026, whole days, EST · compared with Nov 7, 2026 – ' +
        'Nov 13, 2026, whole days, EST · ranked by mentions · queried in America/New_York',
    );
    expect(message.text).toBe(
      'Top 4 influencers for #hcsm, Nov 14–Nov 20 (vs Nov 7–Nov 13): @alice, @bob, @carol…',
    );
  });

  it("shows each person's rank then or new, the move and the metric's change", () => {
    expect(sections(message)).toEqual([
      '*1. Alice* <https://x.com/alice|@alice>\n▲3 · was #4 · +800 mentions\n900 mentions · 20K impressions',
      '*2.* <https://x.com/bob|@bob>\n▼1 · was #1 · −200 mentions\n800 mentions · 9K impressions',
      '*3.* <https://x.com/carol|@carol>\n= · was #3 · +250 mentions\n700 mentions · 30K impressions',
      '*4.* <https://x.com/dave|@dave>\nnew\n600 mentions',
      '*Dropped out*: @erin (was #2), @frank (was #5)',
    ]);
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it('reads the change of the metric it is ranked by', () => {
    const byImpressions = renderAnswer({ ...compared, metric: 'impressions' }, now, {
      previous: before,
    });
    expect(texts(byImpressions.blocks)[1]).toContain(' · ranked by impressions · ');
    expect(
      sections(byImpressions)
        .slice(0, 3)
        .map((text) => text.split('\n')[1]),
    ).toEqual([
      '▲3 · was #4 · +18K impressions',
      '▼1 · was #1 · +1K impressions',
      '= · was #3 · −1K impressions',
    ]);
  });

  it('says compared with the previous period when the request names no window', () => {
    expect(texts(renderAnswer(request, now, { previous: before }).blocks)[1]).toContain(
      ' · compared with the previous period · ',
    );
  });
});

describe('the answer, ranked and explained', () => {
  it('says what it is ranked by and what the metrics mean, with follower counts when sent', () => {
    const message = renderAnswer(
      { ...request, metric: 'impressions' },
      { influencers: [person(1, 'alice', { impressions: 5 }, { followersCount: 12_345 })] },
    );
    const lines = texts(message.blocks);
    expect(lines[1]).toBe(
      'Window: Nov 14, 2026 – Nov 20, 2026, whole days, EST · ranked by impressions · queried in America/New_York',
    );
    expect(lines[2]).toBe('*1.* <https://x.com/alice|@alice>\n5 impressions · 12.3K followers');
    expect(lines.at(-1)).toBe(
      'HSG score: the account’s influence across healthcare social media · mentions: posts ' +
        'naming the account in the window · impressions: how often those posts were seen · ' +
        'data: the analytics service, from public posts on X',
    );
  });
});

describe('the table', () => {
  const many: InfluencersResult = {
    influencers: Array.from({ length: 12 }, (_, i) =>
      person(
        i + 1,
        `user${i + 1}`,
        { mentions: 100 - i, hsg_score: 50 },
        {
          displayName: `Person ${i + 1}`,
          followersCount: 1000 * (i + 1),
          stakeholderCategories: [{ name: 'Doctor' }, { name: 'HCP' }],
        },
      ),
    ),
  };

  it('comes with the list when more than ten are asked for, ten rows a page', () => {
    const message = renderAnswer({ ...request, top: 12 }, many);
    const table = tableOf(message);
    expect(table?.caption).toBe('Top 12 influencers for #hcsm, ranked by mentions');
    expect(table?.page_size).toBe(10);
    expect(cellTexts(table).slice(0, 2)).toEqual([
      ['Rank', 'Name', 'Handle', 'Mentions', 'HSG score', 'Followers', 'Categories'],
      ['1', 'Person 1', '@user1', '100', '50', '1K', 'Doctor, HCP'],
    ]);
    expect(table?.rows[1]?.[3]).toEqual({ type: 'raw_number', value: 100, text: '100' });
    expect(table?.rows).toHaveLength(13);
    expect(sections(message).filter((text) => text.startsWith('*'))).toHaveLength(10);
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it('replaces the list for the table presentation, from the request or from a button', () => {
    for (const message of [
      renderAnswer({ ...request, presentation: 'table' }, now),
      renderAnswer(request, now, { presentation: 'table' }),
    ]) {
      expect(sections(message)).toEqual([]);
      expect(tableOf(message)?.rows).toHaveLength(5);
    }
    expect(tableOf(renderAnswer(request, now))).toBeUndefined();
  });

  it('adds the rank then, the move and the change of the metric when compared', () => {
    const table = tableOf(renderAnswer(compared, now, { previous: before, presentation: 'table' }));
    expect(cellTexts(table)).toEqual([
      ['Rank', 'Name', 'Handle', 'Then', 'Change', 'Δ Mentions', 'Mentions', 'Impressions'],
      ['1', 'Alice', '@alice', '#4', '▲3', '+800', '900', '20K'],
      ['2', '–', '@bob', '#1', '▼1', '−200', '800', '9K'],
      ['3', '–', '@carol', '#3', '=', '+250', '700', '30K'],
      ['4', '–', '@dave', 'new', '–', '–', '600', '–'],
    ]);
    expect(table?.rows[2]?.[5]).toEqual({ type: 'raw_number', value: -200, text: '−200' });
  });

  it('holds a hundred rows of long names and categories within the cells budget', () => {
    const hundred = {
      influencers: Array.from({ length: 100 }, (_, i) =>
        person(
          i + 1,
          `handle_${i}`,
          { mentions: 123_456, retweets: 1234, impressions: 98_765_432 },
          {
            displayName: `${'Name '.repeat(30)}${i}`,
            stakeholderCategories: [{ name: 'Researcher/Academic' }, { name: 'Journalist/Media' }],
          },
        ),
      ),
    };
    const message = renderAnswer({ ...request, top: 100, presentation: 'table' }, hundred);
    expect(checkBlockKitLimits(message)).toEqual([]);
    const table = tableOf(message);
    expect(table?.rows).toHaveLength(101);
    const chars = cellTexts(table)
      .flat()
      .reduce((sum, text) => sum + text.length, 0);
    expect(chars).toBeLessThanOrEqual(9500);
    expect(cellTexts(table)[1]?.[1]).toMatch(/^Name Name .*…$/);
  });
});

describe('the charts', () => {
  const barLabels = ['#1 @alice', '#2 @bob', '#3 @carol', '#4 @dave'];
  const bars = (...values: number[]) =>
    values.map((value, index) => ({ label: barLabels[index], value }));

  it('draws a bar chart of the top ten by the ranking metric above the list', () => {
    const message = renderAnswer({ ...request, presentation: 'chart' }, now);
    expect(message.blocks[2]).toEqual({
      type: 'data_visualization',
      title: 'Top 4 by mentions · #hcsm',
      chart: {
        type: 'bar',
        series: [
          {
            name: 'This period',
            data: bars(900, 800, 700, 600),
          },
        ],
        axis_config: {
          categories: barLabels,
          x_label: 'Influencer',
          y_label: 'Mentions',
        },
      },
    });
    expect(sections(message)).toHaveLength(4);
  });

  it('draws this period beside the previous one when compared', () => {
    const chart = chartOf(
      renderAnswer({ ...compared, metric: 'impressions' }, now, {
        previous: before,
        presentation: 'chart',
      }),
    );
    // @dave was not in the previous period's whole ranking: his bar's label says he is new.
    const marked = (data: { label: string | undefined; value: number }[]) =>
      data.map((point, index) => (index === 3 ? { ...point, label: '#4 @dave ·new' } : point));
    expect(chart?.chart.type === 'bar' && chart.chart.series).toEqual([
      {
        name: 'This period',
        data: marked(bars(20_000, 9_000, 30_000, 0)),
      },
      {
        name: 'Previous period',
        data: marked(bars(2_000, 8_000, 31_000, 0)),
      },
    ]);
  });

  it('marks someone outside the fetched part of the previous period, never a bare 0', () => {
    const chart = chartOf(
      renderAnswer({ ...compared, metric: 'impressions', top: 4 }, now, {
        previous: { influencers: before.influencers.slice(0, 4) },
        presentation: 'chart',
      }),
    );
    expect(chart?.chart.type === 'bar' && chart.chart.axis_config.categories).toEqual([
      '#1 @alice',
      '#2 @bob',
      '#3 @carol',
      '#4 @dave ·>4',
    ]);
  });

  it('keeps bar labels short and distinct', () => {
    const chart = chartOf(
      renderAnswer(
        { ...request, presentation: 'chart' },
        {
          influencers: [
            person(1, 'a_very_long_handle_indeed', {}),
            person(1, 'a_very_long_handle_indeed_too', {}),
          ],
        },
      ),
    );
    expect(chart?.chart.type === 'bar' && chart.chart.axis_config.categories).toEqual([
      '#1 @a_very_long_han…',
      '#1 @a_very_long_h… 2',
    ]);
  });

  it('draws a pie of the stakeholder categories: the top five and Other', () => {
    const names = ['Doctor', 'HCP', 'Patient', 'Caregiver', 'Researcher', 'Pharma', 'Media'];
    const influencers = names.flatMap((name, n) =>
      Array.from({ length: names.length - n }, (_, i) =>
        person(1, `${name}${i}`, {}, { stakeholderCategories: [{ name }] }),
      ),
    );
    influencers.push(person(1, 'nobody', {}));
    const chart = chartOf(
      renderAnswer({ ...request, top: 50, presentation: 'category_chart' }, { influencers }),
    );
    expect(chart).toEqual({
      type: 'data_visualization',
      title: 'Categories in the top 29 · #hcsm',
      chart: {
        type: 'pie',
        segments: [
          { label: 'Doctor', value: 7 },
          { label: 'HCP', value: 6 },
          { label: 'Patient', value: 5 },
          { label: 'Caregiver', value: 4 },
          { label: 'Researcher', value: 3 },
          { label: 'Other', value: 4 },
        ],
      },
    });
  });
});

describe('the buttons', () => {
  const labels = (message: SlackMessage): string[] =>
    message.blocks.flatMap((block) =>
      block.type === 'actions'
        ? block.elements.map((element) =>
            element.type === 'button' ? `${element.action_id}:${element.text.text}` : '',
          )
        : [],
    );

  it('offers to ask again compared, as a table, as a chart or as a file, and to share', () => {
    const message = renderAnswer(request, now, { actions: true, shareable: true });
    expect(labels(message)).toEqual([
      'answer_compare:Compare with previous period',
      'answer_table:Table',
      'answer_chart:Chart',
      'answer_export:Export CSV',
      'influencers_share:Share in channel',
    ]);
    const actions = message.blocks.at(-1);
    expect(actions?.type === 'actions' && actions.block_id).toBe(blockIds.answerActions);
    for (const element of actions?.type === 'actions' ? actions.elements : []) {
      expect(element.type === 'button' && decodeShareValue(element.value ?? '')).toEqual(request);
    }
    expect(actionIds).toMatchObject({
      answerCompare: 'answer_compare',
      answerTable: 'answer_table',
      answerChart: 'answer_chart',
      answerExport: 'answer_export',
    });
  });

  it('leaves out what the answer already is, and carries the request as shown', () => {
    const message = renderAnswer(compared, now, {
      actions: true,
      previous: before,
      presentation: 'table',
    });
    expect(labels(message)).toEqual(['answer_chart:Chart', 'answer_export:Export CSV']);
    const actions = message.blocks.at(-1);
    const value =
      actions?.type === 'actions' && actions.elements[0]?.type === 'button'
        ? actions.elements[0].value
        : undefined;
    expect(decodeShareValue(value ?? '')).toEqual({ ...compared, presentation: 'table' });
  });

  it('offers to add each word left out as a database, asking again with it', () => {
    const message = renderAnswer({ ...request, leftOut: ['conversation'] }, now, { actions: true });
    expect(labels(message)).toContain('answer_add_database:Add “conversation” as a database');
    const actions = message.blocks.at(-1);
    const added = (actions?.type === 'actions' ? actions.elements : []).find(
      (element) => element.type === 'button' && element.action_id === actionIds.answerAddDatabase,
    );
    expect(decodeShareValue((added?.type === 'button' && added.value) || '')).toEqual({
      ...request,
      databases: [...request.databases, 'conversation'],
    });
  });

  it('offers none in a channel, nor to a digest', () => {
    expect(labels(renderAnswer(request, now, { actions: true, audience: 'channel' }))).toEqual([]);
    expect(labels(renderAnswer(request, now))).toEqual([]);
  });

  it('says how to ask instead when the request does not fit in a button value', () => {
    const big = {
      ...request,
      databases: Array.from({ length: 30 }, (_, i) => `#${'x'.repeat(80)}${i}`),
    };
    const message = renderAnswer(big, now, { actions: true, shareable: true });
    expect(labels(message)).toEqual([]);
    expect(texts(message.blocks).at(-1)).toBe(actionsTooLongNote);
    expect(actionsTooLongNote).toBe(
      'This question is too long for the buttons; ask again with `vs previous period`, `table`, `chart` or `export` added.',
    );
  });
});

describe('share value with a comparison, a metric and a presentation', () => {
  it('round-trips them within 2,000 characters', () => {
    const full: LookupRequest = {
      databases: ['#hcsm', 'breast cancer', 'group:Rare Diseases', '4711'],
      start: '2026-11-14T00:00:00-05:00',
      end: '2026-11-21T00:00:00-05:00',
      timezone: 'America/New_York',
      top: 100,
      compare: { start: '2026-11-07T00:00:00-05:00', end: '2026-11-14T00:00:00-05:00' },
      metric: 'impressions',
      presentation: 'category_chart',
    };
    const value = encodeShareValue(full);
    expect(value).toBe(
      '{"v":1,"d":["#hcsm","breast cancer","group:Rare Diseases","4711"],' +
        '"s":"2026-11-14T00:00:00-05:00","e":"2026-11-21T00:00:00-05:00","z":"America/New_York","t":100,' +
        '"c":{"s":"2026-11-07T00:00:00-05:00","e":"2026-11-14T00:00:00-05:00"},"m":"impressions","p":"category_chart"}',
    );
    expect(value.length).toBeLessThanOrEqual(2000);
    expect(decodeShareValue(value)).toEqual(full);
  });

  it.each([
    ['an unknown metric', '"m":"likes"'],
    ['an unknown presentation', '"p":"pie"'],
    ['an inverted comparison', '"c":{"s":"2026-11-08T00:00:00Z","e":"2026-11-07T00:00:00Z"}'],
    ['a comparison without offsets', '"c":{"s":"2026-11-07T00:00:00","e":"2026-11-08T00:00:00Z"}'],
  ])('rejects %s', (_case, field) => {
    expect(
      decodeShareValue(
        `{"v":1,"d":["#a"],"s":"2026-11-14T00:00:00Z","e":"2026-11-15T00:00:00Z","z":"UTC","t":10,${field}}`,
      ),
    ).toBeUndefined();
  });
});

describe('who the people are', () => {
  const categorised = (names: readonly string[][]) =>
    names.map((categories, i) =>
      person(i + 1, `p${i}`, {}, { stakeholderCategories: categories.map((name) => ({ name })) }),
    );
  const contexts = (message: SlackMessage) =>
    message.blocks.flatMap((block) =>
      block.type === 'context'
        ? block.elements.map((element) => ('text' in element ? element.text : ''))
        : [],
    );

  it('counts people, not labels, and says when someone is in two categories', () => {
    const influencers = categorised([
      ['Doctor'],
      ['Doctor', 'Researcher/Academic'],
      ['Patient Advocate'],
      ['Org. Pharma'],
      [],
    ]);
    const message = renderAnswer({ ...request, top: 5 }, { influencers });
    expect(contexts(message)).toContain(
      'Who: Doctors 2 · Researcher 1 · Patient advocate 1 · Pharma org 1 · no category 1 (someone in two categories counts in each)',
    );
  });

  it('draws the categories as a pie of people while nobody is in two', () => {
    const influencers = categorised([['Doctor'], ['Doctor'], ['Doctor'], ['Doctor'], ['Doctor']]);
    influencers.push(...categorised([['HCP'], ['HCP'], ['HCP'], ['HCP'], ['HCP']]));
    const message = renderAnswer(
      { ...request, top: 10, presentation: 'category_chart' },
      { influencers },
    );
    const chart = chartOf(message);
    expect(chart?.chart).toEqual({
      type: 'pie',
      segments: [
        { label: 'Doctor', value: 5 },
        { label: 'HCP', value: 5 },
      ],
    });
    expect(contexts(message)).toContain('Who: Doctors 5 · HCPs 5');
  });

  it('draws a bar of people per category when someone is in two, never a pie of labels', () => {
    const influencers = categorised([
      ['Doctor', 'Researcher/Academic'],
      ['Doctor'],
      ['Doctor'],
      ['Doctor'],
      ['Doctor'],
      ['HCP'],
      ['HCP'],
      ['HCP'],
      ['HCP'],
      [],
    ]);
    const chart = chartOf(
      renderAnswer({ ...request, top: 10, presentation: 'category_chart' }, { influencers }),
    );
    expect(chart?.chart).toEqual({
      type: 'bar',
      series: [
        {
          name: 'People',
          data: [
            { label: 'Doctor', value: 5 },
            { label: 'HCP', value: 4 },
            { label: 'Researcher/Academic', value: 1 },
            { label: 'No category', value: 1 },
          ],
        },
      ],
      axis_config: {
        categories: ['Doctor', 'HCP', 'Researcher/Academic', 'No category'],
        x_label: 'Category',
        y_label: 'People',
      },
    });
  });

  it('shows a category named like a link or markup as text, never a link', () => {
    const influencers = categorised([['https://evil.example/x'], ['*Pharma*']]);
    const message = renderAnswer({ ...request, top: 2 }, { influencers });
    expect(contexts(message)).toContain('Who: https∶//evil.example/x 1 · ∗Pharma∗ 1');
  });

  it('leaves the line out when nobody has a category', () => {
    const message = renderAnswer(request, { influencers: categorised([[], []]) });
    expect(contexts(message).some((text) => text.startsWith('Who:'))).toBe(false);
  });
});
