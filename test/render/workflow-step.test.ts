import { describe, expect, it } from 'vitest';
import { renderStepSummary, stepTopOutOfRange } from '../../src/render/workflow-step.ts';
import { influencer, lookup, now } from './helpers.ts';

describe('renderStepSummary', () => {
  it('titles the ranking with its window and metric, then one line per person', () => {
    const summary = renderStepSummary(
      lookup,
      {
        influencers: [
          influencer({
            rank: 1,
            screenName: 'alice',
            displayName: 'Alice',
            metrics: { mentions: 1234 },
          }),
          influencer({ rank: 2, screenName: 'bob' }),
        ],
      },
      now,
    );
    expect(summary).toBe(
      [
        '*Top 2 influencers for #hcsm*, Nov 14 – Nov 20, whole days, EST, ranked by mentions',
        '1. Alice (@alice) · 1.2K mentions',
        '2. @bob',
      ].join('\n'),
    );
  });

  it('neutralizes names from the service so they cannot notify or link', () => {
    const summary = renderStepSummary(
      lookup,
      { influencers: [influencer({ rank: 1, screenName: 'x', displayName: '<!channel> *bold*' })] },
      now,
    );
    expect(summary).not.toContain('<!channel>');
  });

  it('says nobody ranks when the service found nobody', () => {
    expect(renderStepSummary(lookup, { influencers: [] }, now)).toBe(
      'No influencers found for #hcsm, Nov 14 – Nov 20, whole days, EST.',
    );
  });

  it('stays within a section’s 3,000 characters for the 50 people a step may ask for', () => {
    const long = 'n'.repeat(64);
    const influencers = Array.from({ length: 50 }, (_, i) =>
      influencer({
        rank: i + 1,
        screenName: 'h'.repeat(50),
        displayName: long,
        metrics: { mentions: 1 },
      }),
    );
    expect(
      renderStepSummary({ ...lookup, top: 50 }, { influencers }, now).length,
    ).toBeLessThanOrEqual(3000);
  });
});

describe('stepTopOutOfRange', () => {
  it('names the range and what was given', () => {
    expect(stepTopOutOfRange('51', 1, 50)).toBe(
      '"top" must be a whole number from 1 to 50, not 51.',
    );
  });
});
