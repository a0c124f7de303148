import { describe } from 'vitest';
import { checkRows, type Row } from './rows.ts';

const chicago = { zone: 'America/Chicago', sent: '2026-11-28T04:42:13Z' };
const newYork = { zone: 'America/New_York', sent: '2026-11-28T04:42:16Z' };
const weekly = { trend: { unit: 'week' } };

/** Batch C of the newcomer corpus: trends. */
const trends: Row[] = [
  {
    id: 'C-009',
    request: '/influencers #bcsm last 3 months weekly patients only',
    meant: {
      reads: {
        databases: ['#bcsm'],
        start: '2026-08-31T00:00:00-05:00',
        ...weekly,
        stakeholders: { include: ['Patient Advocate'], exclude: [] },
      },
    },
  },
  {
    id: 'C-023',
    request: '/influencers #hcsm fortnightly last 3 months',
    meant: {
      refused: 'A trend goes by day, week or month',
      tries: '/influencers #hcsm weekly last 3 months',
      keeps: { databases: ['#hcsm'], start: '2026-08-31T00:00:00-05:00', ...weekly },
    },
  },
  {
    id: 'C-025',
    request: 'how has #hcsm changed week to week over the last two months?',
    meant: { reads: { databases: ['#hcsm'], start: '2026-09-28T00:00:00-05:00', ...weekly } },
  },
  {
    id: 'C-027',
    request: '#raredisease by month this year, caregivers only',
    meant: {
      reads: {
        databases: ['#raredisease'],
        start: '2026-01-01T00:00:00-06:00',
        trend: { unit: 'month' },
        stakeholders: { include: ['Caregiver'], exclude: [] },
      },
    },
  },
  {
    id: 'C-029',
    request: '/influencers #hcsm every week last 8 weeks',
    meant: { reads: { databases: ['#hcsm'], start: '2026-10-05T00:00:00-05:00', ...weekly } },
  },
  {
    id: 'C-033',
    request: '/influencers "clinical trials" monthly last 6 months by engagement',
    // Engagement is no count of the service: which near one is asked, never mentions silently.
    meant: {
      asks: ['mentions', 'retweets', 'replies'].map(
        (metric) => `"clinical trials" monthly last 6 months by ${metric}`,
      ),
    },
  },
].map((row) => ({ ...chicago, ...row }));

/** Batch D of the newcomer corpus: one person. */
const people: Row[] = [
  {
    id: 'D-010',
    request: '/influencers @DrFerreiraI trend in #hcsm last 8 weeks',
    meant: {
      reads: { databases: ['#hcsm'], person: 'DrFerreiraI', end: '2026-11-27T23:42:00-05:00' },
    },
  },
  {
    id: 'D-024',
    request: 'where does @DrMbekiR rank in #hcsm last week?',
    meant: {
      reads: {
        databases: ['#hcsm'],
        person: 'DrMbekiR',
        start: '2026-11-16T00:00:00-05:00',
        end: '2026-11-23T00:00:00-05:00',
      },
    },
  },
  {
    id: 'D-027',
    request: 'how did @DrNakamuraM trend in #bcsm over the last 8 weeks?',
    meant: {
      reads: { databases: ['#bcsm'], person: 'DrNakamuraM', end: '2026-11-27T23:42:00-05:00' },
    },
  },
  {
    id: 'D-028',
    request: 'what rank was @DrCallowayH in #bcsm yesterday?',
    meant: {
      reads: {
        databases: ['#bcsm'],
        person: 'DrCallowayH',
        start: '2026-11-26T00:00:00-05:00',
        end: '2026-11-27T00:00:00-05:00',
      },
    },
  },
  {
    id: 'D-029',
    request: 'did @SamuelVanceMD move up in #bcsm last week vs the week before?',
    meant: {
      reads: {
        databases: ['#bcsm'],
        person: 'SamuelVanceMD',
        start: '2026-11-16T00:00:00-05:00',
        compare: { start: '2026-11-09T00:00:00-05:00', end: '2026-11-16T00:00:00-05:00' },
      },
    },
  },
  {
    id: 'D-030',
    request: '/influencers https://x.com/DrFerreiraI in #hcsm last month',
    meant: {
      reads: {
        databases: ['#hcsm'],
        person: 'DrFerreiraI',
        start: '2026-10-01T00:00:00-04:00',
        end: '2026-11-01T00:00:00-04:00',
      },
    },
  },
  {
    id: 'D-032',
    request: '/influencers @DrFerreiraI in #hcsm last week vs same week last year',
    meant: {
      reads: {
        person: 'DrFerreiraI',
        compare: { start: '2025-11-17T00:00:00-05:00', end: '2025-11-24T00:00:00-05:00' },
      },
    },
  },
  {
    id: 'D-033',
    request: '/influencers DrFerreiraI in #hcsm last month',
    meant: {
      asks: ['@DrFerreiraI in #hcsm last month', '"DrFerreiraI" in #hcsm last month'],
    },
  },
  {
    id: 'D-036',
    request: 'how did @DrFerreiraI do in #hcsm compared with last month?',
    // No window: this month so far, compared with the same part of October.
    meant: {
      reads: {
        person: 'DrFerreiraI',
        start: '2026-11-01T00:00:00-04:00',
        end: '2026-11-27T23:42:16-05:00',
        compare: { start: '2026-10-01T00:00:00-04:00', end: '2026-10-27T23:42:16-04:00' },
      },
    },
  },
].map((row) => ({ ...newYork, ...row }));

describe('newcomers asking for trends (batch C)', () => {
  checkRows(trends);
});

describe('newcomers asking about one person (batch D)', () => {
  checkRows(people);
});
