/**
 * A trend as a CSV file: one row per person and period, for a spreadsheet's pivot table.
 * The people are every period's top N (the latest period's first); a period a person was not
 * ranked in has their row with an empty rank and empty figures.
 */
import type { LookupRequest } from '../../model/lookup.ts';
import { formatDatabases } from '../format.ts';
import { type CsvFile, csvFile, personCellsFor, personColumns } from './csv.ts';
import { rankedByWords } from './metric-words.ts';
import { type PeriodRanking, trendOf } from './trend.ts';

const unitNames = { day: 'Daily', week: 'Weekly', month: 'Monthly' } as const;

export function renderTrendCsv(
  request: LookupRequest,
  rankings: readonly PeriodRanking[],
): CsvFile {
  const view = trendOf(request, rankings, 'everyone');
  const rows = view.people.flatMap((person) => {
    const cells = personCellsFor(person.row);
    return view.periods.map((period, index) => {
      const ranked = person.ranks[index];
      return [
        period.start,
        period.end,
        period.partial ? 'yes' : 'no',
        ranked === undefined ? '' : String(ranked.rank),
        ...cells(ranked),
      ];
    });
  });
  const who = view.people.length === 1 ? '1 person' : `${view.people.length} people`;
  return csvFile(request, {
    name: `influencers-${unitNames[view.unit].toLowerCase()}`,
    title: `${unitNames[view.unit]} ranks of ${who} for ${formatDatabases(request.databases)}, ${rankedByWords(view.metric)}`,
    rows: [['Period start', 'Period end', 'Partial', 'Rank', ...personColumns], ...rows],
  });
}
