import { describe, expect } from 'vitest';
import { checkRows, type Row } from './rows.ts';

const at = { zone: 'UTC', sent: '2026-11-28T04:42:04Z' };
const lastWeek = { start: '2026-11-16T00:00:00+00:00', end: '2026-11-23T00:00:00+00:00' };
const lastMonth = { start: '2026-10-01T00:00:00+00:00', end: '2026-11-01T00:00:00+00:00' };
const only = (...include: string[]) => ({ stakeholders: { include, exclude: [] } });
const someOrgs = expect.arrayContaining(['Org. Pharma', 'Org. Provider']);

/** Batch A of the newcomer corpus: who people are. */
const rows: Row[] = [
  {
    id: 'A-002',
    request: '/influencers #bcsm last month nurses only',
    meant: { reads: { databases: ['#bcsm'], ...lastMonth, ...only('HCP') } },
  },
  {
    id: 'A-005',
    request: '/influencers #raredisease last quarter caregivers only',
    meant: {
      reads: {
        databases: ['#raredisease'],
        start: '2026-07-01T00:00:00+00:00',
        end: '2026-10-01T00:00:00+00:00',
        ...only('Caregiver'),
      },
    },
  },
  {
    id: 'A-007',
    request: '/influencers #meded last week academics only top 5',
    meant: {
      reads: { databases: ['#meded'], ...lastWeek, top: 5, ...only('Researcher/Academic') },
    },
  },
  {
    id: 'A-009',
    request: '/influencers #hcsm last 14 days media only',
    meant: {
      reads: {
        databases: ['#hcsm'],
        start: '2026-11-14T04:42:00+00:00',
        end: '2026-11-28T04:42:00+00:00',
        ...only('Journalist/Media'),
      },
    },
  },
  {
    id: 'A-010',
    request: '/influencers #pharma this month pharma only',
    meant: {
      reads: { databases: ['#pharma'], start: '2026-11-01T00:00:00+00:00', ...only('Org. Pharma') },
    },
  },
  {
    id: 'A-012',
    request: '/influencers #hcldr last month organizations only',
    meant: {
      reads: {
        databases: ['#hcldr'],
        ...lastMonth,
        stakeholders: { include: someOrgs, exclude: [] },
      },
    },
  },
  {
    id: 'A-016',
    request: '/influencers #hcsm last week excl. pharma and orgs',
    meant: {
      reads: {
        databases: ['#hcsm'],
        ...lastWeek,
        stakeholders: { include: [], exclude: someOrgs },
      },
    },
  },
  {
    id: 'A-019',
    request: '/influencers "breast cancer" last month patients only, no pharma',
    meant: {
      reads: {
        databases: ['breast cancer'],
        ...lastMonth,
        stakeholders: { include: ['Patient Advocate'], exclude: ['Org. Pharma'] },
      },
    },
  },
  {
    id: 'A-026',
    request: '/influencers #hcsm last week providers only',
    meant: { reads: { databases: ['#hcsm'], ...lastWeek, ...only('Org. Provider') } },
  },
  {
    id: 'A-029',
    request: '/influencers #meded yesterday docs only',
    meant: {
      reads: {
        databases: ['#meded'],
        start: '2026-11-27T00:00:00+00:00',
        end: '2026-11-28T00:00:00+00:00',
        ...only('Doctor'),
      },
    },
  },
  {
    id: 'A-031',
    request: '/influencers #hcsm last week KOLs',
    // Key opinion leaders are the influencers themselves: no filter.
    meant: { reads: { databases: ['#hcsm'], ...lastWeek, stakeholders: undefined } },
  },
  {
    id: 'A-034',
    request: '/influencers #pharma last week exclude pharma companies',
    meant: {
      reads: {
        databases: ['#pharma'],
        ...lastWeek,
        stakeholders: { include: [], exclude: ['Org. Pharma'] },
      },
    },
  },
  {
    id: 'A-035',
    request: '/influencers #hcsm last week non-pharma',
    meant: {
      reads: {
        databases: ['#hcsm'],
        ...lastWeek,
        stakeholders: { include: [], exclude: ['Org. Pharma'] },
      },
    },
  },
  {
    id: 'A-040',
    request: '/influencers #hcsm last week physician only',
    meant: { reads: { databases: ['#hcsm'], ...lastWeek, ...only('Doctor') } },
  },
  {
    id: 'A-044',
    request: '/influencers #hcsm last week pharmaceutical companies only',
    meant: { reads: { databases: ['#hcsm'], ...lastWeek, ...only('Org. Pharma') } },
  },
  {
    id: 'A-046',
    request: '/influencers #hcsm last week hospitals only',
    meant: { reads: { databases: ['#hcsm'], ...lastWeek, ...only('Org. Provider') } },
  },
  {
    id: 'A-047',
    request: '/influencers #hcsm in the last week, only doctors',
    meant: {
      reads: {
        databases: ['#hcsm'],
        start: '2026-11-21T04:42:00+00:00',
        end: '2026-11-28T04:42:00+00:00',
        ...only('Doctor'),
      },
    },
  },
  {
    id: 'A-049',
    request: '/influencers #hcsm last month HCPs but not doctors',
    meant: {
      reads: {
        databases: ['#hcsm'],
        ...lastMonth,
        stakeholders: { include: ['HCP'], exclude: ['Doctor'] },
      },
    },
  },
  {
    id: 'A-050',
    request: '/influencers #bcsm last week who are these people',
    meant: { reads: { databases: ['#bcsm'], ...lastWeek, presentation: 'category_chart' } },
  },
  {
    id: 'A-058',
    request: 'researchers talking about "clinical trials" last month',
    meant: {
      reads: { databases: ['clinical trials'], ...lastMonth, ...only('Researcher/Academic') },
    },
  },
  {
    id: 'A-060',
    request: 'what is the stakeholder mix in #hcsm last month?',
    meant: { reads: { databases: ['#hcsm'], ...lastMonth, presentation: 'category_chart' } },
  },
].map((row) => ({ ...at, ...row }));

describe('newcomers asking who people are (batch A)', () => {
  checkRows(rows);
});
