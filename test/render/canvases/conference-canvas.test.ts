import { describe, expect, it } from 'vitest';
import type { ConferenceReport } from '../../../src/digests/conferences/outlet.ts';
import type { Conference, DayResult } from '../../../src/model/conference.ts';
import { renderConferenceCanvas } from '../../../src/render/canvases/conference-canvas.ts';

const month: Conference = {
  id: 'K7Q2M9',
  teamId: 'T1',
  channelId: 'C0ASCO',
  creatorId: 'U1',
  databases: ['#ASCO26'],
  firstDay: '2026-10-01',
  lastDay: '2026-10-31',
  zone: 'Europe/Paris',
  watch: Array.from({ length: 20 }, (_, i) => `watched_${i}`),
  top: 25,
  refreshMinutes: 15,
  status: 'active',
  nextRunAt: new Date('2026-11-01T00:00:00Z'),
  state: { boards: 1, pinned: true, days: [] },
  createdAt: new Date('2026-09-01T00:00:00Z'),
  canvas: { enabled: true, told: [] },
};

// A month-long congress across the end of summer time in Paris (Sun Oct 25 2026 is 25 hours).
const days: DayResult[] = Array.from({ length: 31 }, (_, i) => ({
  day: `2026-10-${String(i + 1).padStart(2, '0')}`,
  top: [
    { screenName: `first_${i}`, rank: 1 },
    { screenName: `second_${i}`, rank: 2 },
    { screenName: `third_${i}`, rank: 3 },
  ],
  watch: Array.from({ length: 20 }, (_, j) => ({ screenName: `watched_${j}`, rank: j + i })),
}));

const report = (overrides: Partial<ConferenceReport> = {}): ConferenceReport => ({
  result: {
    influencers: Array.from({ length: 25 }, (_, i) => ({
      screenName: `person_${i}`,
      displayName: `Dr | ${'x'.repeat(200)}`,
      rank: i + 1,
      stakeholderCategories: [],
      metrics: {},
    })),
  },
  watch: month.watch.map((screenName, i) => ({ screenName, rank: i + 1 })),
  days,
  through: new Date('2026-10-31T23:00:00Z'),
  final: true,
  stoppedEarly: false,
  ...overrides,
});

const tables = (markdown: string) =>
  markdown
    .split('\n\n')
    .filter((block) => block.startsWith('|'))
    .map((table) => table.split('\n'));

describe('renderConferenceCanvas', () => {
  it('keeps every table within 10 rows and 6 columns, newest day first, with no leading heading', () => {
    const { title, markdown } = renderConferenceCanvas(
      month,
      report(),
      new Date('2026-11-01T00:00:00Z'),
    );
    expect(title).toBe('#ASCO26 · Oct 1 – Oct 31');
    expect(markdown).not.toMatch(/^# /m);
    for (const table of tables(markdown)) {
      expect(table.length - 2).toBeLessThanOrEqual(10);
      expect(table[0]?.split(' | ').length).toBeLessThanOrEqual(6);
    }
    // Pipes in names stay inside their cell.
    expect(markdown).toContain('Dr \\| xxx');
    expect(markdown.indexOf('Day 31 of 31 · Sat Oct 31')).toBeLessThan(
      markdown.indexOf('Day 1 of 31 · Thu Oct 1'),
    );
    expect(markdown).toContain('Day 25 of 31 · Sun Oct 25');
    expect(markdown).toContain('The congress is over: this is the final report.');
  });

  it('stays under its byte cap by leaving out the oldest days, and says so', () => {
    const { markdown } = renderConferenceCanvas(month, report(), new Date('2026-11-01T00:00:00Z'), {
      maxBytes: 8 * 1024,
    });
    expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(8 * 1024);
    expect(markdown).toMatch(/\d+ earlier days left out to keep this canvas under 8 KB\./);
    expect(markdown).toContain('Day 31 of 31');
    expect(markdown).not.toContain('Day 1 of 31 ');
  });
});
