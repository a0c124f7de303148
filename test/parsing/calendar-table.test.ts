/**
 * The calendar's table (docs/calendar.md), applied: each row's request, read at its instant in its
 * zone, gives the window and the comparison the row states.
 */
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';

interface Row {
  readonly zone: string;
  readonly asked: string;
  readonly request: string;
  /** The DST case the row names, if any. */
  readonly note: string;
  readonly window: string;
  readonly compared: string;
}

const table = readFileSync(new URL('../../docs/calendar.md', import.meta.url), 'utf8');

/** The rows of the table: every line that starts with `|` after the header and its rule. */
function rowsOf(markdown: string): Row[] {
  const lines = markdown.split('\n').filter((line) => line.startsWith('| '));
  return lines.slice(1).map((line) => {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const [zone, asked, requestCell, window, compared] = cells as [
      string,
      string,
      string,
      string,
      string,
    ];
    const request = /`([^`]+)`/.exec(requestCell)?.[1] ?? '';
    const note = requestCell.replace(/`[^`]+`/, '').trim();
    return { zone, asked, request, note, window, compared };
  });
}

const rows = rowsOf(table);

/** `start → end` in the request's zone, as the table writes it. */
function span(start: string, end: string, zone: string): string {
  const local = (iso: string) => DateTime.fromISO(iso).setZone(zone).toFormat('yyyy-MM-dd HH:mm');
  return `${local(start)} → ${local(end)}`;
}

describe('the calendar (docs/calendar.md)', () => {
  it('holds rows, and some of them DST cases', () => {
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.filter((row) => row.note.startsWith('(DST')).length).toBeGreaterThanOrEqual(3);
  });

  it.each(rows.map((row) => [`${row.request} ${row.note}`.trim(), row] as const))(
    'reads %s as the table says',
    (_, row) => {
      const conversation = !row.request.startsWith('#');
      const result = parseLookup(row.request, {
        now: new Date(row.asked),
        zone: row.zone,
        conversation,
      });
      if (result instanceof ParseError) throw new Error(`${row.request}: ${result.message}`);
      expect(span(result.start, result.end, result.timezone)).toBe(row.window);
      const compared =
        result.compare === undefined
          ? '—'
          : span(result.compare.start, result.compare.end, result.timezone);
      expect(compared).toBe(row.compared);
    },
  );
});
