/**
 * The Home tab, and the lookup modal it opens, read back as one line of the lookup grammar.
 * Lists other features own (the person's digests) come in as blocks under the bot's own content.
 */
import type { HomeView, InputBlock, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import type { ParseError, ParseErrorReason } from '../../errors.ts';
import type { SlackMessage } from '../../model/message.ts';
import { type Metric, metricNames } from '../../model/metrics.ts';
import { context, section } from '../blocks.ts';
import { cleanText, truncate } from '../format.ts';
import {
  actionIds,
  blockIds,
  callbackIds,
  type LookupModalInput,
  lookupModalInputs,
} from '../ids.ts';
import { blockKitLimits, checked } from '../limits.ts';
import { commandMrkdwn, exampleLines, grammarSummary, helpExamples } from '../lookups/help.ts';
import { unhandled } from '../unhandled.ts';
import type { DigestEditState } from './digest-edit.ts';

export interface HomeOptions {
  /** The slash command as configured. Default `/influencers`. */
  readonly command?: string;
  /**
   * Blocks appended under the bot's own content, after a divider: the place for lists that other
   * features own (such as the user's digests). Blocks beyond the Home tab's 100 are left out, with a
   * line saying so.
   */
  readonly sections?: readonly KnownBlock[];
}

/** The Home tab: what the bot does, how to ask, and a button that opens the lookup modal. */
export function renderHome(options: HomeOptions = {}): HomeView {
  const command = commandMrkdwn(options.command);
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Who drove the conversation?' } },
    section(
      'I rank the people who led a health conversation on X in a time window: the top ' +
        'influencers of a hashtag, a phrase or a group, with their mentions, reach and ' +
        'stakeholder categories.',
    ),
    {
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
    },
    { type: 'divider' },
    section(`*Try in any channel*\n${exampleLines(command, helpExamples.slice(0, 3))}`),
    section(grammarSummary),
    context('Or send me the same text in the Messages tab, for example `#hcsm yesterday`.'),
  ];

  const extra = options.sections ?? [];
  if (extra.length > 0) {
    blocks.push({ type: 'divider', block_id: blockIds.homeExtensions });
    const room = blockKitLimits.viewBlocks - blocks.length;
    if (extra.length <= room) {
      blocks.push(...extra);
    } else {
      blocks.push(
        ...extra.slice(0, room - 1),
        context(`…and ${extra.length - (room - 1)} more items not shown here.`),
      );
    }
  }

  const view: HomeView = { type: 'home', callback_id: callbackIds.home, blocks };
  return checked(view, 'view');
}

/**
 * The Home tab for a workspace outside the allow-list: the refusal (the renderer's words for
 * TeamNotAllowedError, passed in as mrkdwn) and nothing else, so no data and no button show.
 */
export function renderRefusedHome(refusal: string): HomeView {
  const view: HomeView = {
    type: 'home',
    callback_id: callbackIds.home,
    blocks: [section(`:no_entry: ${truncate(refusal, blockKitLimits.sectionText - 20)}`)],
  };
  return checked(view, 'view');
}

/** Sent as a DM when Slack rate limited opening the lookup modal: the trigger is gone by then. */
export const lookupModalUnavailableText =
  'Slack asked this app to slow down, so the Look up form could not open. Press Look up again in ' +
  'a minute, or send me the lookup here, for example `#hcsm yesterday`.';

/** {@link lookupModalUnavailableText} as a message. */
export function renderLookupModalUnavailable(): SlackMessage {
  return checked({
    text: lookupModalUnavailableText,
    blocks: [section(`:hourglass: ${lookupModalUnavailableText}`)],
  });
}

/** What the lookup modal's inputs hold; each can be prefilled. */
export interface LookupModalValues {
  readonly databases: string;
  readonly window: string;
  readonly zone: string;
  readonly top: number;
  /** The metric the ranking is sorted by; none selected ranks by mentions, the service's order. */
  readonly metric: Metric | 'followers';
}

/** The metric select's labels, in the order the answer shows the metrics. */
const metricLabels: Readonly<Record<Metric | 'followers', string>> = {
  mentions: 'Mentions',
  hsg_score: 'HSG score',
  impressions: 'Impressions (reach)',
  retweets: 'Retweets (reposts)',
  tweets: 'Tweets (posts)',
  replies: 'Replies',
  followers: 'Followers (of the top 500)',
};

function metricOption(metric: Metric | 'followers'): PlainTextOption {
  return { text: { type: 'plain_text', text: metricLabels[metric] }, value: metric };
}

/** Who the modal can keep, each with the lookup word that asks for it. */
const whoOptions: readonly (readonly [word: string, label: string])[] = [
  ['doctors', 'Doctors'],
  ['hcps', 'HCPs'],
  ['patients', 'Patients and advocates'],
  ['caregivers', 'Caregivers'],
  ['researchers', 'Researchers'],
  ['journalists', 'Journalists and media'],
  ['pharma', 'Pharma'],
  ['providers', 'Providers'],
  ['organizations', 'Organizations'],
];

function whoSelect(input: 'who' | 'without', label: string, hint: string): InputBlock {
  const { blockId, actionId } = lookupModalInputs[input];
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: { type: 'plain_text', text: label },
    hint: { type: 'plain_text', text: hint },
    element: {
      type: 'multi_static_select',
      action_id: actionId,
      placeholder: { type: 'plain_text', text: 'Everyone' },
      options: whoOptions.map(([value, text]) => ({ text: { type: 'plain_text', text }, value })),
    },
  };
}

function metricSelect(initial: Metric | 'followers' | undefined): InputBlock {
  const { blockId, actionId } = lookupModalInputs.metric;
  const options = (Object.keys(metricLabels) as (Metric | 'followers')[]).map(metricOption);
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: { type: 'plain_text', text: 'Rank by' },
    hint: { type: 'plain_text', text: 'Empty: mentions.' },
    element: {
      type: 'static_select',
      action_id: actionId,
      placeholder: { type: 'plain_text', text: 'Mentions' },
      options,
      ...(initial === undefined ? {} : { initial_option: metricOption(initial) }),
    },
  };
}

export interface LookupModalOptions {
  readonly initial?: Partial<LookupModalValues>;
  /** The user's Slack zone: prefilled in the zone input and named in its hint. */
  readonly zone?: string;
}

/**
 * The lookup modal. The zone is free text, read by the parser like `in <zone>` in a command, so it
 * accepts every IANA zone and the parser's own error names a wrong one; it starts as the user's zone.
 */
export function renderLookupModal(options: LookupModalOptions = {}): ModalView {
  const initial = options.initial ?? {};
  const userZone = options.zone === undefined ? '' : truncate(cleanText(options.zone), 64);
  const zone = initial.zone ?? userZone;
  const top = initial.top ?? 10;
  const view: ModalView = {
    type: 'modal',
    callback_id: callbackIds.lookupModal,
    title: { type: 'plain_text', text: 'Look up influencers' },
    submit: { type: 'plain_text', text: 'Look up' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      textInput('databases', {
        label: 'Databases',
        placeholder: '#hcsm, "breast cancer", group:Oncology',
        hint: 'Hashtags, phrases in quotes, numeric ids or group:Name, separated by commas.',
        initial: initial.databases,
        optional: false,
      }),
      textInput('window', {
        label: 'Window',
        placeholder: 'last week',
        hint: 'For example yesterday, last month, since Oct 1, from 2026-09-01 to 2026-09-08. Empty: the last 7 days.',
        initial: initial.window,
        optional: true,
      }),
      textInput('zone', {
        label: 'Time zone',
        placeholder: 'Europe/London',
        hint: `An IANA zone such as America/New_York, or UTC.${userZone ? ` Yours is ${userZone}.` : ' Empty: UTC.'}`,
        initial: zone.length > 0 ? zone : undefined,
        optional: true,
      }),
      {
        type: 'input',
        block_id: lookupModalInputs.top.blockId,
        optional: true,
        label: { type: 'plain_text', text: 'How many people' },
        hint: { type: 'plain_text', text: 'From 1 to 50.' },
        element: {
          type: 'number_input',
          action_id: lookupModalInputs.top.actionId,
          is_decimal_allowed: false,
          min_value: '1',
          max_value: '50',
          initial_value: String(top),
        },
      },
      metricSelect(initial.metric),
      whoSelect('who', 'Only', 'Keep only these people, among the top 500. Empty: everyone.'),
      whoSelect('without', 'Leave out', 'Drop these people, among the top 500.'),
    ],
  };
  return checked(view, 'view');
}

/**
 * `view.state.values` as Slack sends it on submission (only the part read here): text inputs'
 * `value`, selects' `selected_option`, as in the digest Edit modal.
 */
export type ModalStateValues = DigestEditState;

/**
 * The lookup modal's inputs as one line of the command grammar (`#hcsm last week in Europe/London
 * top 20 by impressions`), so the parser reads a modal exactly as it reads a command and its
 * errors apply as-is. A metric that is not one of the select's own is left out.
 */
export function lookupTextFromModal(values: ModalStateValues): string {
  const state = (input: LookupModalInput) => {
    const { blockId, actionId } = lookupModalInputs[input];
    return values[blockId]?.[actionId];
  };
  const read = (input: LookupModalInput): string => cleanText(state(input)?.value ?? '');
  const zone = read('zone');
  const top = read('top');
  const chosen = state('metric')?.selected_option?.value;
  const metric = [...metricNames, 'followers'].find((name) => name === chosen);
  const words = (input: 'who' | 'without') =>
    (state(input)?.selected_options ?? [])
      .map((option) => option.value ?? '')
      .filter((value) => whoOptions.some(([word]) => word === value));
  const only = words('who');
  const without = words('without');
  return [
    read('databases'),
    read('window'),
    zone && `in ${zone}`,
    top && `top ${top}`,
    metric === undefined ? '' : `by ${metric}`,
    only.length === 0 ? '' : `only ${only.join(' and ')}`,
    without.length === 0 ? '' : `excluding ${without.join(' and ')}`,
  ]
    .filter((part) => part.length > 0)
    .join(' ');
}

/**
 * The parser's complaint about a modal submission, placed under the input it concerns, for a
 * `response_action: 'errors'` answer.
 */
export function modalErrors(error: ParseError): Record<string, string> {
  const input = inputFor(error.reason);
  return { [lookupModalInputs[input].blockId]: truncate(cleanText(error.message), 300) };
}

function inputFor(reason: ParseErrorReason): LookupModalInput {
  switch (reason) {
    case 'empty':
    case 'no_database':
    case 'too_many_databases':
    case 'bad_command':
    case 'bad_schedule':
      return 'databases';
    case 'unknown_zone':
      return 'zone';
    case 'bad_top':
      return 'top';
    case 'bad_time':
    case 'empty_window':
    case 'inverted_window':
    case 'future_start':
    case 'unrecognised':
    case 'ambiguous':
      return 'window';
    default:
      return unhandled(reason, 'databases');
  }
}

function textInput(
  input: Exclude<LookupModalInput, 'top' | 'metric'>,
  spec: {
    label: string;
    placeholder: string;
    hint: string;
    initial: string | undefined;
    optional: boolean;
  },
): InputBlock {
  const { blockId, actionId } = lookupModalInputs[input];
  const element: InputBlock['element'] & { type: 'plain_text_input' } = {
    type: 'plain_text_input',
    action_id: actionId,
    placeholder: { type: 'plain_text', text: spec.placeholder },
    max_length: 1000,
  };
  if (spec.initial !== undefined) element.initial_value = truncate(spec.initial, 1000);
  return {
    type: 'input',
    block_id: blockId,
    optional: spec.optional,
    label: { type: 'plain_text', text: spec.label },
    hint: { type: 'plain_text', text: spec.hint },
    element,
  };
}
