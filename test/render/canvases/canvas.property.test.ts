import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CanvasHistoryEntry,
  canvasMaxBytes,
  canvasText,
  rankingTable,
  renderCanvasReport,
  unescapeCanvasText,
} from '../../../src/render/canvases/canvas.ts';
import { cleanText, truncate, unlinkUrls } from '../../../src/render/format.ts';
import { name } from '../arbitraries.ts';

const handle = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_]{1,15}$/), name);
const person = fc.record(
  { handle, name: fc.option(name, { nil: undefined }) },
  { requiredKeys: ['handle'] },
);
const instant = fc.date({
  min: new Date('2015-01-01T00:00:00Z'),
  max: new Date('2035-01-01T00:00:00Z'),
  noInvalidDate: true,
});
const historyEntry: fc.Arbitrary<CanvasHistoryEntry> = fc.record(
  {
    at: instant,
    top: fc.array(person, { maxLength: 3 }),
    newcomers: fc.array(person, { maxLength: 50 }),
    note: fc.option(name, { nil: undefined }),
  },
  { requiredKeys: ['at', 'top', 'newcomers'] },
);
const row = fc.record(
  {
    rank: fc.integer({ min: 1, max: 500 }),
    handle,
    name: fc.option(name, { nil: undefined }),
    values: fc.array(fc.option(name, { nil: undefined }), { maxLength: 5 }),
  },
  { requiredKeys: ['rank', 'handle', 'values'] },
);
const moved = fc.record({
  account: person,
  from: fc.integer({ min: 1, max: 50 }),
  to: fc.integer({ min: 1, max: 50 }),
});
const report = fc.record({
  question: name,
  window: fc.record({
    start: instant,
    end: instant,
    zone: fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Australia/Lord_Howe'),
  }),
  details: fc.array(name, { maxLength: 3 }),
  channelId: fc.constantFrom('C0HCSM0001', 'not an id'),
  creatorId: fc.constantFrom('U0CREATOR1', '<@U1>'),
  columns: fc.array(name, { maxLength: 6 }),
  rows: fc.array(row, { maxLength: 50 }),
  moves: fc.record({
    firstRun: fc.boolean(),
    newcomers: fc.array(person, { maxLength: 50 }),
    up: fc.array(moved, { maxLength: 50 }),
    down: fc.array(moved, { maxLength: 50 }),
    left: fc.array(person, { maxLength: 50 }),
  }),
  history: fc.array(historyEntry, { maxLength: 30 }),
  updatedAt: instant,
});

/** The cells of one table row: split on pipes no backslash escapes. */
function cells(line: string): string[] {
  const parts: string[] = [];
  let cell = '';
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (char === '\\') {
      cell += char + (line[i + 1] ?? '');
      i++;
    } else if (char === '|') {
      parts.push(cell);
      cell = '';
    } else cell += char;
  }
  parts.push(cell);
  return parts.slice(1, -1).map((part) => part.trim());
}

describe('renderCanvasReport (properties)', () => {
  it('stays under 100 KB, with no leading `# ` heading, whatever it holds', () => {
    fc.assert(
      fc.property(report, (input) => {
        const text = renderCanvasReport(input);
        expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(canvasMaxBytes);
        expect(text).not.toMatch(/^# /m);
      }),
      { numRuns: 60 },
    );
  });

  it('drops only the oldest history: what it keeps is the newest, in order', () => {
    fc.assert(
      fc.property(report, fc.integer({ min: 20_000, max: 60_000 }), (input, maxBytes) => {
        const text = renderCanvasReport(input, { maxBytes });
        const shown = text.split('\n').filter((line) => line.startsWith('- **')).length;
        const total = Math.min(input.history.length, 26);
        if (Buffer.byteLength(text) > maxBytes) {
          // Only when what comes before the history alone passes the cap.
          expect(shown).toBe(0);
        }
        if (shown < total) {
          expect(text).toContain(`${total - shown} older run`);
        } else expect(text).not.toContain('left out to keep this canvas');
      }),
      { numRuns: 40 },
    );
  });
});

describe('rankingTable (properties)', () => {
  it('keeps every row one line of exactly its columns, and each name reads as it was', () => {
    fc.assert(
      fc.property(
        fc.array(name, { maxLength: 3 }),
        fc.array(row, { maxLength: 12 }),
        (columns, rows) => {
          const lines = rankingTable(columns, rows).split('\n');
          const width = 3 + Math.min(columns.length, 3);
          expect(lines).toHaveLength(2 + Math.min(rows.length, 10));
          for (const line of lines) expect(cells(line)).toHaveLength(width);
          rows.slice(0, 10).forEach((input, i) => {
            const nameCell = cells(lines[i + 2] as string)[2] as string;
            const expected =
              input.name === undefined ? '' : unlinkUrls(truncate(cleanText(input.name), 80));
            expect(unescapeCanvasText(nameCell)).toBe(expected);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('escapes every pipe and never lets a newline through', () => {
    fc.assert(
      fc.property(name, (text) => {
        const escaped = canvasText(text);
        expect(escaped).not.toMatch(/[\n\r\u2028\u2029]/);
        expect(escaped.replace(/\\./gu, '')).not.toContain('|');
      }),
      { numRuns: 300 },
    );
  });
});
