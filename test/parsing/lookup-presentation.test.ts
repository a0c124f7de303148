import { describe, expect, it } from 'vitest';
import type { LookupRequest } from '../../src/parsing/index.ts';
import { failure, lookup } from './lookup-helpers.ts';

type Shown = Pick<LookupRequest, 'top' | 'presentation' | 'export'>;

const shown = (text: string): Shown => {
  const { top, presentation, export: exported } = lookup(text);
  return {
    top,
    ...(presentation === undefined ? {} : { presentation }),
    ...(exported === undefined ? {} : { export: exported }),
  };
};

describe('parseLookup', () => {
  describe('tables, charts and exports', () => {
    it.each<[string, Shown]>([
      ['#x last week', { top: 10 }],
      ['#x last week table', { top: 10, presentation: 'table' }],
      ['#x TABLE last week', { top: 10, presentation: 'table' }],
      ['#x last week chart', { top: 10, presentation: 'chart' }],
      ['#x last week graph', { top: 10, presentation: 'chart' }],
      ['#x last week chart top 5', { top: 5, presentation: 'chart' }],
      ['#x last week chart categories', { top: 10, presentation: 'category_chart' }],
      ['#x categories chart last week', { top: 10, presentation: 'category_chart' }],
      ['#x category graph', { top: 10, presentation: 'category_chart' }],
      ['#x chart categories top 50', { top: 50, presentation: 'category_chart' }],
      ['#x last week top 11', { top: 11, presentation: 'table' }],
      ['#x last week top 100', { top: 100, presentation: 'table' }],
      ['#x last week limit:40 table', { top: 40, presentation: 'table' }],
      ['#x last week top 10', { top: 10 }],
      ['#x last week export', { top: 500, export: true }],
      ['#x last week csv', { top: 500, export: true }],
      ['#x last week export top 5', { top: 5, export: true }],
      ['#x last week export top 20', { top: 20, presentation: 'table', export: true }],
      ['#x last week top 500 csv', { top: 500, presentation: 'table', export: true }],
      ['#x last week chart export', { top: 500, presentation: 'chart', export: true }],
      ['#x last week table export', { top: 500, presentation: 'table', export: true }],
    ])('reads %s', (text, expected) => {
      expect(shown(text)).toEqual(expected);
    });

    it('keeps the other clauses beside them', () => {
      expect(lookup('#x, #y last week vs previous by reach chart export in Europe/Paris')).toEqual({
        databases: ['#x', '#y'],
        start: '2026-11-09T00:00:00+01:00',
        end: '2026-11-16T00:00:00+01:00',
        timezone: 'Europe/Paris',
        top: 500,
        compare: { start: '2026-11-02T00:00:00+01:00', end: '2026-11-09T00:00:00+01:00' },
        metric: 'impressions',
        presentation: 'chart',
        export: true,
      });
    });

    it('leaves the words to a quoted phrase', () => {
      expect(lookup('"chart review" last week')).toMatchObject({ databases: ['chart review'] });
      expect(lookup('"chart review" last week').presentation).toBeUndefined();
    });
  });

  describe('tables, charts and exports that cannot be', () => {
    it.each([
      [
        '#x chart table',
        'unrecognised',
        '“chart” and “table” ask for two ways of showing the answer: choose one. Try: /influencers #x chart',
      ],
      [
        '#x table chart categories',
        'unrecognised',
        '“table” and “chart categories” ask for two ways of showing the answer: choose one. Try: /influencers #x table',
      ],
      [
        '#x graph chart',
        'unrecognised',
        'The way of showing the answer is given twice (again in “chart”): give it once. Try: /influencers #x graph',
      ],
      [
        '#x export last week csv',
        'unrecognised',
        'The export is given twice (again in “csv”): give it once. Try: /influencers #x export last week',
      ],
      [
        '#x top 101',
        'bad_top',
        '“top 101” is more than an answer shows: a table holds at most 100 people. Ask for top 100 or fewer, or add export to get up to 500 in a CSV file. Try: /influencers #x top 101 export',
      ],
      [
        '#x table top 200',
        'bad_top',
        '“top 200” is more than an answer shows: a table holds at most 100 people. Ask for top 100 or fewer, or add export to get up to 500 in a CSV file. Try: /influencers #x table top 200 export',
      ],
      [
        '#x top 501 export',
        'bad_top',
        '“top 501” is not a valid count: top and limit take a whole number from 1 to 100, or up to 500 with export. Try: /influencers #x top 100 export',
      ],
      [
        '#x chart top 11',
        'bad_top',
        '“top 11” is more than a chart shows: it has at most 10 bars. Ask for top 10 or fewer, or for a table. Try: /influencers #x chart top 10',
      ],
      [
        '#x top 20 graph export',
        'bad_top',
        '“top 20” is more than a chart shows: it has at most 10 bars. Ask for top 10 or fewer, or for a table. Try: /influencers #x top 10 graph export',
      ],
    ])('refuses %s', (text, reason, message) => {
      const error = failure(text);
      expect(error.reason).toBe(reason);
      expect(error.message).toBe(message);
    });
  });
});
