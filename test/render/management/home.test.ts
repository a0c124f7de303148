import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { ParseError, type ParseErrorReason } from '../../../src/errors.ts';
import { parseLookup } from '../../../src/parsing/index.ts';
import { actionIds, blockIds, callbackIds, lookupModalInputs } from '../../../src/render/ids.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import {
  lookupTextFromModal,
  modalErrors,
  renderHome,
  renderLookupModal,
  renderLookupModalUnavailable,
  renderRefusedHome,
} from '../../../src/render/management/home.ts';
import { toPlainText } from '../../../src/render/text.ts';

describe('renderHome', () => {
  it('explains the bot, gives examples and offers the Look up button', () => {
    const view = renderHome();
    expect(view.type).toBe('home');
    expect(view.callback_id).toBe(callbackIds.home);
    expect(view.blocks).toContainEqual({
      type: 'actions',
      block_id: blockIds.homeActions,
      elements: [
        {
          type: 'button',
          action_id: actionIds.openLookup,
          style: 'primary',
          text: { type: 'plain_text', text: 'Look up' },
        },
      ],
    });
    const text = toPlainText(view);
    expect(text).toContain('Who drove the conversation?');
    expect(text).toContain(
      'Try in any channel\n• `/influencers #hcsm last week`\n' +
        '• `/influencers "breast cancer", #bcsm since Oct 1 top 20`\n' +
        '• `/influencers group:Oncology yesterday in Europe/London`',
    );
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
  });

  it('appends extra sections after a divider', () => {
    const digestList: KnownBlock[] = [
      { type: 'section', text: { type: 'mrkdwn', text: '*Your digests*' } },
    ];
    const view = renderHome({ sections: digestList });
    expect(view.blocks.slice(-2)).toEqual([
      { type: 'divider', block_id: blockIds.homeExtensions },
      ...digestList,
    ]);
  });

  it('leaves out extra sections beyond 100 blocks and says so', () => {
    const many: KnownBlock[] = Array.from({ length: 150 }, (_, i) => ({
      type: 'section',
      text: { type: 'mrkdwn', text: `digest ${i}` },
    }));
    const view = renderHome({ sections: many });
    expect(view.blocks).toHaveLength(100);
    const fixed = renderHome().blocks.length + 1;
    const shown = 100 - fixed - 1;
    expect(view.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `…and ${150 - shown} more items not shown here.` }],
    });
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
  });
});

describe('renderLookupModal', () => {
  it('asks for databases, window, zone and top, with the user zone prefilled', () => {
    const view = renderLookupModal({ zone: 'America/New_York' });
    expect(view).toEqual({
      type: 'modal',
      callback_id: callbackIds.lookupModal,
      title: { type: 'plain_text', text: 'Look up influencers' },
      submit: { type: 'plain_text', text: 'Look up' },
      close: { type: 'plain_text', text: 'Cancel' },
      blocks: [
        {
          type: 'input',
          block_id: 'lookup_databases',
          optional: false,
          label: { type: 'plain_text', text: 'Databases' },
          hint: {
            type: 'plain_text',
            text: 'Hashtags, phrases in quotes, numeric ids or group:Name, separated by commas.',
          },
          element: {
            type: 'plain_text_input',
            action_id: 'databases',
            placeholder: { type: 'plain_text', text: '#hcsm, "breast cancer", group:Oncology' },
            max_length: 1000,
          },
        },
        {
          type: 'input',
          block_id: 'lookup_window',
          optional: true,
          label: { type: 'plain_text', text: 'Window' },
          hint: {
            type: 'plain_text',
            text: 'For example yesterday, last month, since Oct 1, from 2026-09-01 to 2026-09-08. Empty: the last 7 days.',
          },
          element: {
            type: 'plain_text_input',
            action_id: 'window',
            placeholder: { type: 'plain_text', text: 'last week' },
            max_length: 1000,
          },
        },
        {
          type: 'input',
          block_id: 'lookup_zone',
          optional: true,
          label: { type: 'plain_text', text: 'Time zone' },
          hint: {
            type: 'plain_text',
            text: 'An IANA zone such as America/New_York, or UTC. Yours is America/New_York.',
          },
          element: {
            type: 'plain_text_input',
            action_id: 'zone',
            placeholder: { type: 'plain_text', text: 'Europe/London' },
            max_length: 1000,
            initial_value: 'America/New_York',
          },
        },
        {
          type: 'input',
          block_id: 'lookup_top',
          optional: true,
          label: { type: 'plain_text', text: 'How many people' },
          hint: { type: 'plain_text', text: 'From 1 to 50.' },
          element: {
            type: 'number_input',
            action_id: 'top',
            is_decimal_allowed: false,
            min_value: '1',
            max_value: '50',
            initial_value: '10',
          },
        },
        {
          type: 'input',
          block_id: 'lookup_metric',
          optional: true,
          label: { type: 'plain_text', text: 'Rank by' },
          hint: { type: 'plain_text', text: 'Empty: mentions.' },
          element: {
            type: 'static_select',
            action_id: 'metric',
            placeholder: { type: 'plain_text', text: 'Mentions' },
            options: [
              ['Mentions', 'mentions'],
              ['HSG score', 'hsg_score'],
              ['Impressions (reach)', 'impressions'],
              ['Retweets (reposts)', 'retweets'],
              ['Tweets (posts)', 'tweets'],
              ['Replies', 'replies'],
              ['Followers (of the top 500)', 'followers'],
            ].map(([text, value]) => ({ text: { type: 'plain_text', text }, value })),
          },
        },
        ...[
          [
            'lookup_who',
            'who',
            'Only',
            'Keep only these people, among the top 500. Empty: everyone.',
          ],
          ['lookup_without', 'without', 'Leave out', 'Drop these people, among the top 500.'],
        ].map(([blockId, actionId, label, hint]) => ({
          type: 'input',
          block_id: blockId,
          optional: true,
          label: { type: 'plain_text', text: label },
          hint: { type: 'plain_text', text: hint },
          element: {
            type: 'multi_static_select',
            action_id: actionId,
            placeholder: { type: 'plain_text', text: 'Everyone' },
            options: [
              ['Doctors', 'doctors'],
              ['HCPs', 'hcps'],
              ['Patients and advocates', 'patients'],
              ['Caregivers', 'caregivers'],
              ['Researchers', 'researchers'],
              ['Journalists and media', 'journalists'],
              ['Pharma', 'pharma'],
              ['Providers', 'providers'],
              ['Organizations', 'organizations'],
            ].map(([text, value]) => ({ text: { type: 'plain_text', text }, value })),
          },
        })),
      ],
    });
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
  });

  it('preselects the given metric', () => {
    const view = renderLookupModal({ initial: { metric: 'impressions' } });
    const select = (view.blocks as KnownBlock[]).find(
      (block) => block.block_id === lookupModalInputs.metric.blockId,
    );
    expect(select?.type === 'input' && select.element).toMatchObject({
      initial_option: {
        text: { type: 'plain_text', text: 'Impressions (reach)' },
        value: 'impressions',
      },
    });
  });

  it('prefills the given values, and says UTC applies when no zone is known', () => {
    const view = renderLookupModal({
      initial: { databases: '#hcsm', window: 'yesterday', top: 20 },
    });
    const inputs = (view.blocks as KnownBlock[]).flatMap((block) =>
      block.type === 'input' ? [block] : [],
    );
    expect(
      inputs.map((block) => (block.element as { initial_value?: string }).initial_value),
    ).toEqual(['#hcsm', 'yesterday', undefined, '20', undefined, undefined, undefined]);
    expect(inputs[2]?.hint).toEqual({
      type: 'plain_text',
      text: 'An IANA zone such as America/New_York, or UTC. Empty: UTC.',
    });
  });
});

describe('lookupTextFromModal', () => {
  const state = (values: Partial<Record<keyof typeof lookupModalInputs, string | null>>) =>
    Object.fromEntries(
      Object.entries(lookupModalInputs).map(([input, { blockId, actionId }]) => [
        blockId,
        { [actionId]: { value: values[input as keyof typeof lookupModalInputs] ?? null } },
      ]),
    );

  it('writes the inputs as one command line for the parser', () => {
    expect(
      lookupTextFromModal(
        state({
          databases: '#hcsm, "breast cancer"',
          window: 'last week',
          zone: 'Europe/London',
          top: '20',
        }),
      ),
    ).toBe('#hcsm, "breast cancer" last week in Europe/London top 20');
  });

  it('gives the parser a line it reads with the chosen zone and top', () => {
    const text = lookupTextFromModal(
      state({ databases: '#hcsm', window: 'yesterday', zone: 'europe/london', top: '20' }),
    );
    expect(
      parseLookup(text, { now: new Date('2026-11-21T15:30:00Z'), zone: 'America/New_York' }),
    ).toEqual({
      databases: ['#hcsm'],
      start: '2026-11-20T00:00:00+00:00',
      end: '2026-11-21T00:00:00+00:00',
      timezone: 'Europe/London',
      top: 20,
      presentation: 'table',
    });
  });

  it('ranks by the metric selected, read as `by <metric>`', () => {
    const values = {
      ...state({ databases: '#hcsm', window: 'yesterday' }),
      [lookupModalInputs.metric.blockId]: {
        [lookupModalInputs.metric.actionId]: { selected_option: { value: 'hsg_score' } },
      },
    };
    const text = lookupTextFromModal(values);
    expect(text).toBe('#hcsm yesterday by hsg_score');
    expect(parseLookup(text, { now: new Date('2026-11-21T15:30:00Z'), zone: 'UTC' })).toMatchObject(
      { metric: 'hsg_score' },
    );
  });

  it('leaves out a selected metric that is not one of its own', () => {
    const values = {
      ...state({ databases: '#hcsm' }),
      [lookupModalInputs.metric.blockId]: {
        [lookupModalInputs.metric.actionId]: { selected_option: { value: 'followers, top 3' } },
      },
    };
    expect(lookupTextFromModal(values)).toBe('#hcsm');
  });

  it('leaves out empty inputs', () => {
    expect(lookupTextFromModal(state({ databases: ' #hcsm\n' }))).toBe('#hcsm');
    expect(lookupTextFromModal({})).toBe('');
  });
});

describe('modalErrors', () => {
  it.each<[ParseErrorReason, string]>([
    ['empty', 'lookup_databases'],
    ['no_database', 'lookup_databases'],
    ['too_many_databases', 'lookup_databases'],
    ['bad_command', 'lookup_databases'],
    ['bad_schedule', 'lookup_databases'],
    ['unknown_zone', 'lookup_zone'],
    ['bad_top', 'lookup_top'],
    ['bad_time', 'lookup_window'],
    ['empty_window', 'lookup_window'],
    ['inverted_window', 'lookup_window'],
    ['future_start', 'lookup_window'],
    ['unrecognised', 'lookup_window'],
  ])('puts a %s error under %s', (reason, blockId) => {
    expect(modalErrors(new ParseError(reason, 'The parser says why.'))).toEqual({
      [blockId]: 'The parser says why.',
    });
  });

  it('shortens a long message', () => {
    const errors = modalErrors(new ParseError('bad_time', 'x'.repeat(1000)));
    expect(errors.lookup_window).toHaveLength(300);
  });
});

describe('renderRefusedHome', () => {
  it('holds only the refusal: no button, no examples, no data', () => {
    const view = renderRefusedHome('This app is not enabled for this workspace.');
    expect(view).toEqual({
      type: 'home',
      callback_id: callbackIds.home,
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: ':no_entry: This app is not enabled for this workspace.' },
        },
      ],
    });
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
  });
});

describe('renderLookupModalUnavailable', () => {
  it('says the form could not open and what to do instead', () => {
    expect(renderLookupModalUnavailable().text).toBe(
      'Slack asked this app to slow down, so the Look up form could not open. Press Look up ' +
        'again in a minute, or send me the lookup here, for example `#hcsm yesterday`.',
    );
  });
});

describe('lookupTextFromModal with who to keep', () => {
  it('writes the chosen people as only … and excluding …, ignoring unknown values', () => {
    const { who, without } = lookupModalInputs;
    const values = {
      [lookupModalInputs.databases.blockId]: {
        [lookupModalInputs.databases.actionId]: { value: '#hcsm' },
      },
      [who.blockId]: {
        [who.actionId]: { selected_options: [{ value: 'doctors' }, { value: 'patients' }] },
      },
      [without.blockId]: {
        [without.actionId]: { selected_options: [{ value: 'pharma' }, { value: 'drop table' }] },
      },
    };
    expect(lookupTextFromModal(values)).toBe('#hcsm only doctors and patients excluding pharma');
  });
});
