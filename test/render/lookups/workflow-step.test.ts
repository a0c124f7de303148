import { describe, expect, it } from 'vitest';
import { actionIds } from '../../../src/render/ids.ts';
import {
  renderStepSummary,
  stepSummaryOf,
  stepTopOutOfRange,
} from '../../../src/render/lookups/workflow-step.ts';
import { influencer, lookup, now } from '../helpers.ts';

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

  it('says who the people are under the title, counting people', () => {
    const summary = renderStepSummary(
      lookup,
      {
        influencers: [
          influencer({
            rank: 1,
            screenName: 'alice',
            stakeholderCategories: [{ id: 1, name: 'Doctor' }],
          }),
          influencer({
            rank: 2,
            screenName: 'bob',
            stakeholderCategories: [
              { id: 1, name: 'Doctor' },
              { id: 5, name: 'Researcher/Academic' },
            ],
          }),
        ],
      },
      now,
    );
    expect(summary.split('\n').slice(1)).toEqual([
      'Who: Doctors 2 · Researcher 1 (someone in two categories counts in each)',
      '1. @alice',
      '2. @bob',
    ]);
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

describe('renderStepSummary of a ranking chosen here', () => {
  const people = {
    influencers: [
      influencer({
        rank: 1,
        screenName: 'alice',
        displayName: 'Alice',
        followersCount: 12_345,
        metrics: { mentions: 8 },
      }),
    ],
    selection: { pool: 500, matched: 37 },
  };

  it('says who was kept of the top 500 and shows followers when they rank', () => {
    const summary = renderStepSummary(
      {
        ...lookup,
        top: 1,
        stakeholders: { include: ['Doctor'], exclude: [] },
        orderBy: 'followers',
      },
      people,
      now,
    );
    expect(summary).toBe(
      [
        '*Top influencer for #hcsm*, Nov 14 – Nov 20, whole days, EST, ranked by followers, among the top 500 by mentions',
        'Doctors among the top 500 by mentions: 37 · showing 1',
        '1. Alice (@alice) · 12.3K followers',
      ].join('\n'),
    );
  });

  it('blames the filter when it kept nobody of the top 500', () => {
    const summary = renderStepSummary(
      { ...lookup, stakeholders: { include: ['Caregiver'], exclude: [] } },
      { influencers: [], selection: { pool: 500, matched: 0 } },
      now,
    );
    expect(summary).toBe(
      'The filter (Caregivers) kept nobody of the top 500 by mentions of #hcsm, Nov 14 – Nov 20, whole days, EST.',
    );
  });
});

describe('stepSummaryOf', () => {
  it('reads an answer as mrkdwn: the title in bold, each block in order, no buttons', () => {
    const summary = stepSummaryOf({
      text: 'fallback',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Weekly trend for *#hcsm*' } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: '4 weeks' }] },
        { type: 'section', text: { type: 'mrkdwn', text: '*@carol* leads.' } },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: actionIds.shareAnswer,
              text: { type: 'plain_text', text: 'Share in channel' },
            },
          ],
        },
      ],
    });
    expect(summary).toBe('*Weekly trend for ∗#hcsm∗*\n4 weeks\n*@carol* leads.');
  });

  it('writes a table as text, as a workspace without tables shows it', () => {
    const summary = stepSummaryOf({
      text: 'fallback',
      blocks: [
        {
          type: 'data_table',
          caption: 'Rank each week',
          rows: [
            [
              { type: 'raw_text', text: 'Influencer' },
              { type: 'raw_text', text: 'Nov 16' },
            ],
            [
              { type: 'raw_text', text: '@carol' },
              { type: 'raw_text', text: '#1' },
            ],
          ],
        },
      ],
    });
    expect(summary).toMatch(/^\*Rank each week\*\n```\nInfluencer +Nov 16\n.*\n@carol +#1\n```$/s);
  });

  it('leaves out whole a block that would take it past a section’s 3,000 characters', () => {
    const long = `\`\`\`\n${'x'.repeat(2990)}\n\`\`\``;
    const summary = stepSummaryOf({
      text: 'fallback',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Title' } },
        { type: 'section', text: { type: 'mrkdwn', text: long } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'Who: Doctors 3' }] },
      ],
    });
    expect(summary).toBe('*Title*\nWho: Doctors 3');
  });
});

describe('stepTopOutOfRange', () => {
  it('names the range and what was given', () => {
    expect(stepTopOutOfRange('51', 1, 50)).toBe(
      '"top" must be a whole number from 1 to 50, not 51.',
    );
  });
});
