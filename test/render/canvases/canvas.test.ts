import { describe, expect, it } from 'vitest';
import type { InfluencersResult } from '../../../src/analytics/types.ts';
import { canvasProblems } from '../../../src/model/canvas.ts';
import type { Digest } from '../../../src/model/digest.ts';
import { rankChanges } from '../../../src/model/rank-changes.ts';
import {
  type CanvasReport,
  canvasHandle,
  canvasText,
  rankingTable,
  renderCanvasReport,
} from '../../../src/render/canvases/canvas.ts';
import {
  canvasProblemWords,
  renderCanvasProblemNotice,
  renderDigestCanvas,
} from '../../../src/render/canvases/digest-canvas.ts';

const report: CanvasReport = {
  question: 'Top 10 of #hcsm, ranked by mentions',
  window: {
    start: new Date('2026-11-16T08:00:00Z'),
    end: new Date('2026-11-23T08:00:00Z'),
    zone: 'Europe/London',
  },
  channelId: 'C0HCSM0001',
  creatorId: 'U0CREATOR1',
  columns: ['Mentions', 'Move'],
  rows: [
    { rank: 1, handle: 'DrJane', name: 'Dr Jane | MD', values: ['1.2K', 'new'] },
    { rank: 2, handle: 'nurse_joe', values: ['900', '▲2'] },
  ],
  moves: {
    firstRun: false,
    newcomers: [{ handle: 'DrJane', name: 'Dr Jane | MD' }],
    up: [{ account: { handle: 'nurse_joe' }, from: 4, to: 2 }],
    down: [],
    left: [{ handle: 'gone_one' }],
  },
  history: [
    {
      at: new Date('2026-11-16T08:00:00Z'),
      top: [{ handle: 'nurse_joe' }, { handle: 'a' }, { handle: 'b' }],
      newcomers: [{ handle: 'b' }],
    },
    { at: new Date('2026-11-09T08:00:00Z'), top: [], newcomers: [], note: 'skipped: no change' },
  ],
  updatedAt: new Date('2026-11-23T08:00:05Z'),
};

describe('renderCanvasReport', () => {
  it('writes the question, the window in its zone, the table, the moves and the history', () => {
    const text = renderCanvasReport(report);
    expect(text.startsWith('**Top 10 of \\#hcsm, ranked by mentions**')).toBe(true);
    expect(text).toContain('Window: Nov 16, 2026 08:00 to Nov 23, 2026 08:00 GMT (Europe/London)');
    expect(text).toContain('Posted in ![](#C0HCSM0001), asked for by ![](@U0CREATOR1)');
    expect(text).toContain('| # | Account | Name | Mentions | Move |');
    expect(text).toContain('| 1 | [@DrJane](https://x.com/DrJane) | Dr Jane \\| MD | 1.2K | new |');
    expect(text).toContain('- New: Dr Jane \\| MD ([@DrJane](https://x.com/DrJane))');
    expect(text).toContain('- Up: [@nurse\\_joe](https://x.com/nurse_joe), 4 → 2');
    expect(text).toContain('- Left: [@gone\\_one](https://x.com/gone_one)');
    expect(text).toContain(
      '- **Mon Nov 16, 2026**: 1. [@nurse\\_joe](https://x.com/nurse_joe), 2. [@a](https://x.com/a), 3. [@b](https://x.com/b); new: [@b](https://x.com/b)',
    );
    expect(text).toContain('- **Mon Nov 9, 2026**: skipped: no change');
  });

  it('starts with no `# ` heading: the canvas title is the heading', () => {
    expect(renderCanvasReport(report)).not.toMatch(/^# /m);
  });

  it('dates history in the report zone across a DST change (London, Oct 25 2026)', () => {
    const text = renderCanvasReport({
      ...report,
      history: [{ at: new Date('2026-10-25T23:30:00Z'), top: [], newcomers: [] }],
    });
    // 23:30 UTC is already Oct 25 in London after the clocks went back (GMT), Oct 26 in Paris.
    expect(text).toContain('- **Sun Oct 25, 2026**: no one ranked');
  });

  it('drops the oldest history first to stay under the cap, and says so', () => {
    const history = Array.from({ length: 26 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 10, 23 - i * 7 > 0 ? 23 - i * 7 : 1)),
      top: [{ handle: `newest_${i}`, name: 'x'.repeat(80) }],
      newcomers: [],
    }));
    const text = renderCanvasReport({ ...report, history }, { maxBytes: 4_000 });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4_000);
    expect(text).toContain('newest\\_0');
    expect(text).not.toContain('newest\\_25');
    expect(text).toMatch(/- \d+ older runs left out to keep this canvas under 3 KB\./);
  });

  it('keeps a name that is no handle as text, never as a link', () => {
    expect(canvasHandle('not a handle](javascript:x)')).toBe('@not a handle\\](javascript:x)');
  });

  it('keeps a name, a handle or a database that looks like a URL from becoming a link', () => {
    expect(canvasText('https://evil.example/x')).toBe('https∶//evil.example/x');
    expect(canvasHandle('http://evil.example')).toBe('@http∶//evil.example');
    const text = renderCanvasReport({
      ...report,
      question: 'Top 3 of https://evil.example',
      rows: [{ rank: 1, handle: 'jane', name: 'Visit https://evil.example', values: ['1', 'new'] }],
    });
    expect(text).not.toContain('://evil');
    expect(text).toContain(
      '| 1 | [@jane](https://x.com/jane) | Visit https∶//evil.example | 1 | new |',
    );
  });

  it('keeps at most 10 rows and 6 columns', () => {
    const rows = Array.from({ length: 15 }, (_, i) => ({
      rank: i + 1,
      handle: `h${i}`,
      values: ['1', '2', '3', '4', '5'],
    }));
    const table = rankingTable(['a', 'b', 'c', 'd', 'e'], rows).split('\n');
    expect(table).toHaveLength(12);
    expect(table[0]).toBe('| # | Account | Name | a | b | c |');
  });
});

const digest: Digest = {
  id: 'ABC234',
  teamId: 'T0TEAM0001',
  channelId: 'C0HCSM0001',
  creatorId: 'U0CREATOR1',
  databases: ['#hcsm'],
  schedule: { kind: 'cron', expression: '0 9 * * 1', zone: 'Europe/Paris', cadence: 'weekly' },
  window: { kind: 'since-previous-run' },
  top: 3,
  presentation: 'list',
  postWhen: 'always',
  status: 'active',
  consecutiveFailures: 0,
  nextRunAt: new Date('2026-11-30T08:00:00Z'),
  createdAt: new Date('2026-11-01T08:00:00Z'),
  updatedAt: new Date('2026-11-01T08:00:00Z'),
};

const result: InfluencersResult = {
  influencers: [
    {
      rank: 1,
      screenName: 'DrJane',
      displayName: 'Jane',
      stakeholderCategories: [],
      metrics: { mentions: 1200 },
    },
    { rank: 2, screenName: 'nurse_joe', stakeholderCategories: [], metrics: { mentions: 900 } },
    { rank: 3, screenName: 'pat', stakeholderCategories: [], metrics: {} },
  ],
};

describe('renderDigestCanvas', () => {
  it('titles the canvas with the digest and marks who moved and who is new', () => {
    const changes = rankChanges(
      [
        { screenName: 'nurse_joe', rank: 1 },
        { screenName: 'pat', rank: 2 },
        { screenName: 'left_one', rank: 3 },
      ],
      result.influencers.map(({ screenName, rank }) => ({ screenName, rank })),
    );
    const doc = renderDigestCanvas(
      digest,
      {
        databases: ['#hcsm'],
        start: '2026-11-16T09:00:00+01:00',
        end: '2026-11-23T09:00:00+01:00',
        timezone: 'Europe/Paris',
      },
      result,
      changes,
      [],
      new Date('2026-11-23T08:00:03Z'),
    );
    expect(doc.title).toBe('Top 3 of #hcsm');
    expect(doc.markdown).toContain('| 1 | [@DrJane](https://x.com/DrJane) | Jane | 1.2K | new |');
    expect(doc.markdown).toContain(
      '| 2 | [@nurse\\_joe](https://x.com/nurse_joe) |   | 900 | ▼1 |',
    );
    expect(doc.markdown).toContain('| 3 | [@pat](https://x.com/pat) |   | – | ▼1 |');
    expect(doc.markdown).toContain('- Left: [@left\\_one](https://x.com/left_one)');
    expect(doc.markdown).toContain(
      'Window: Nov 16, 2026 09:00 to Nov 23, 2026 09:00 GMT+1 (Europe/Paris)',
    );
    expect(doc.markdown).toContain('No earlier runs yet.');
  });
});

describe('renderCanvasProblemNotice', () => {
  it('says why, that the digest still posts, and how to stop the canvas', () => {
    const notice = renderCanvasProblemNotice(digest, 'channel_canvas_taken');
    expect(notice.text).toBe(
      `The canvas of your digest ABC234 could not be written: ${canvasProblemWords('channel_canvas_taken')}.`,
    );
    expect(JSON.stringify(notice.blocks)).toContain('digest edit ABC234 canvas off');
    expect(JSON.stringify(notice.blocks)).toContain('The digest still posts at each run.');
  });
});

describe('canvasProblemWords', () => {
  it('gives every problem its own words, and blames Slack being unreachable only when it was', () => {
    const words = canvasProblems.map(canvasProblemWords);
    expect(new Set(words).size).toBe(canvasProblems.length);
    const unreachable = canvasProblems.filter((problem) =>
      canvasProblemWords(problem).includes('could not be reached'),
    );
    expect(unreachable).toEqual(['slack_failed']);
  });

  it.each([
    ['edits_unavailable', 'plan does not let apps edit'],
    ['creation_failed', "could not create the channel's canvas"],
    ['canvas_locked', 'locked the canvas'],
    ['canvas_too_large', 'larger than Slack lets a canvas be'],
  ] as const)('says what %s means', (problem, words) => {
    expect(canvasProblemWords(problem)).toContain(words);
  });
});
