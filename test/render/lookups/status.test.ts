import { describe, expect, it } from 'vitest';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import {
  renderPending,
  renderStillRunning,
  renderStoppedByRestart,
  renderTimedOut,
} from '../../../src/render/lookups/status.ts';

const request: LookupRequest = {
  databases: ['#hcsm'],
  start: '2026-11-14T00:00:00-05:00',
  end: '2026-11-21T00:00:00-05:00',
  timezone: 'America/New_York',
  top: 10,
};
const now = new Date('2026-11-21T15:30:00Z');

describe('renderPending', () => {
  it('says exactly what is being looked up, in the query zone', () => {
    expect(renderPending(request, { now })).toEqual({
      text: 'Looking up top influencers for #hcsm, Nov 14 – Nov 20, whole days, EST…',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: 'Looking up top influencers for #hcsm, Nov 14 – Nov 20, whole days, EST…',
          },
        },
      ],
    });
  });

  it('writes the window in the zone of the query, whatever the offset of the strings', () => {
    const london = {
      ...request,
      start: '2026-11-14T05:00:00Z',
      end: '2026-11-21T05:00:00Z',
      timezone: 'Europe/London',
    };
    expect(renderPending(london, { now }).text).toBe(
      'Looking up top influencers for #hcsm, Nov 14 05:00 to Nov 21 05:00 GMT…',
    );
  });

  it('adds the note as a context line', () => {
    const message = renderPending(request, { now, note: 'Times are in UTC.' });
    expect(message.blocks[1]).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'Times are in UTC.' }],
    });
  });

  it('shows several databases as typed and escapes them', () => {
    const message = renderPending(
      { ...request, databases: ['#hcsm', 'breast cancer', 'group:R&D', '<!channel>'] },
      { now },
    );
    expect(message.text).toBe(
      'Looking up top influencers for #hcsm, "breast cancer", group:R&amp;D, &lt;!channel&gt;, ' +
        'Nov 14 – Nov 20, whole days, EST…',
    );
  });
});

describe('renderStillRunning', () => {
  it('says the lookup is still running and for how long', () => {
    expect(renderStillRunning(request, 12_000, { now }).text).toBe(
      'Still looking up top influencers for #hcsm, Nov 14 – Nov 20, whole days, EST ' +
        '(12 seconds so far). The analytics service is slow right now; the answer will replace ' +
        'this message.',
    );
  });
});

describe('renderStillRunning after the default 8 seconds', () => {
  it('says 8 seconds, not 9, when the timer fires a few milliseconds late', () => {
    expect(renderStillRunning(request, 8_004, { now }).text).toContain('(8 seconds so far)');
  });
});

describe('renderStoppedByRestart', () => {
  it('says the app restarted and to ask again, not to narrow the request', () => {
    expect(renderStoppedByRestart(request, { now }).text).toBe(
      'The app restarted before your answer was ready; ask again in a minute. (Top influencers ' +
        'for #hcsm, Nov 14 – Nov 20, whole days, EST.)',
    );
  });
});

describe('renderTimedOut', () => {
  it('says the lookup was stopped and what to try', () => {
    expect(renderTimedOut(request).text).toBe(
      'The lookup of top influencers for #hcsm, Nov 14, 2026 – Nov 20, 2026, whole days, EST ' +
        'took too long and was stopped. Try again in a few minutes, or ask for a shorter window ' +
        '(for example `last 24 hours`) or fewer databases.',
    );
  });
});
