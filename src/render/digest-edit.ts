/**
 * The Edit modal of a digest: its settings prefilled as words the digest grammar reads, and its
 * submission read back as one `digest edit <id> …` command, so the modal and the command agree
 * and the grammar's errors show under the input they concern.
 */
import type { InputBlock, ModalView, PlainTextOption } from '@slack/types';
import type { ParseError } from '../errors.ts';
import type { Digest, PostWhen, Presentation } from '../model/digest.ts';
import { type Metric, metricNames } from '../model/metrics.ts';
import { context } from './blocks.ts';
import { digestNoun, digestSubject } from './digest-words.ts';
import { cleanText, truncate } from './format.ts';
import { type DigestEditInput, digestEditCallbackId, digestEditInputs } from './ids.ts';
import { checked } from './limits.ts';
import { metricName } from './metric-words.ts';
import { schedulePhrase } from './schedule.ts';

/** The Edit modal's words for a window, which the grammar reads back. */
function windowPhrase(digest: Pick<Digest, 'window'>): string {
  const { window } = digest;
  if (window.kind === 'calendar') return `last ${window.unit}`;
  return window.kind === 'last'
    ? `last ${window.amount} ${window.amount === 1 ? window.unit.replace(/s$/, '') : window.unit}`
    : 'since the previous run';
}

const metricDefault = 'default';
/** `by followers`: the digest's metric stays the one its top 500 are taken by. */
const followersChoice = 'followers';

const postsChoices: readonly (readonly [PostWhen, string, string])[] = [
  ['always', 'Every run', 'post always'],
  ['changed', 'Only when the top N changes', 'only when changed'],
  ['new', 'Only when someone new enters the top N', 'only new'],
];

const shownChoices: readonly (readonly [Presentation, string])[] = [
  ['list', 'A list'],
  ['table', 'A table'],
  ['chart', 'A chart'],
];

function option(value: string, text: string): PlainTextOption {
  return { text: { type: 'plain_text', text }, value };
}

/**
 * The Edit modal, prefilled with the digest's settings. `privateMetadata` (the digest id and
 * where the button was pressed) comes back with the submission.
 */
export function renderDigestEditModal(digest: Digest, privateMetadata: string): ModalView {
  const metrics = [
    option(metricDefault, "The service's own order"),
    ...metricNames.map((metric) => option(metric, metricName(metric))),
    option(followersChoice, 'Followers, among the top 500'),
  ];
  const posts = postsChoices.map(([value, text]) => option(value, text));
  const shown = shownChoices.map(([value, text]) => option(value, text));
  const view: ModalView = {
    type: 'modal',
    callback_id: digestEditCallbackId,
    private_metadata: privateMetadata,
    title: { type: 'plain_text', text: `Edit ${digestNoun(digest).toLowerCase()} ${digest.id}` },
    submit: { type: 'plain_text', text: 'Save' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      context(
        `${digestSubject(digest)}. Its databases stay; to watch others, create another digest.`,
      ),
      textInput(
        'schedule',
        'Schedule',
        schedulePhrase(digest.schedule.expression, digest.schedule.everyWeeks),
        {
          hint: 'every monday at 9am, weekdays at 8:30, every month on the 1st at 10:00, every 6 hours, or cron "0 9 * * 1".',
        },
      ),
      textInput('window', 'Each run covers', windowPhrase(digest), {
        hint: 'since the previous run, or last 24 hours, past 7 days, last 2 weeks.',
      }),
      textInput('top', 'How many people', String(digest.top), { hint: 'From 1 to 50.' }),
      textInput('zone', 'Time zone', digest.schedule.zone, {
        hint: 'An IANA zone such as Europe/London or America/New_York, or UTC.',
      }),
      select(
        'metric',
        'Ranked by',
        metrics,
        digest.orderBy === 'followers' ? followersChoice : (digest.metric ?? metricDefault),
      ),
      select('posts', 'Posts', posts, digest.postWhen),
      select('shown', 'Shown as', shown, digest.presentation),
    ],
  };
  return checked(view, 'view');
}

/** An input of the modal, under its label, around the element made for its action id. */
function input(
  which: DigestEditInput,
  label: string,
  element: (actionId: string) => InputBlock['element'],
  hint?: string,
): InputBlock {
  const { blockId, actionId } = digestEditInputs[which];
  return {
    type: 'input',
    block_id: blockId,
    label: { type: 'plain_text', text: label },
    ...(hint === undefined ? {} : { hint: { type: 'plain_text', text: hint } }),
    element: element(actionId),
  };
}

function textInput(
  which: Extract<DigestEditInput, 'schedule' | 'window' | 'top' | 'zone'>,
  label: string,
  initial: string,
  spec: { readonly hint: string },
): InputBlock {
  return input(
    which,
    label,
    (actionId) => ({
      type: 'plain_text_input',
      action_id: actionId,
      initial_value: truncate(initial, 200),
      max_length: 500,
    }),
    spec.hint,
  );
}

function select(
  which: Extract<DigestEditInput, 'metric' | 'posts' | 'shown'>,
  label: string,
  options: PlainTextOption[],
  initial: string,
): InputBlock {
  const chosen = options.find((o) => o.value === initial);
  return input(which, label, (actionId) => ({
    type: 'static_select',
    action_id: actionId,
    options,
    ...(chosen === undefined ? {} : { initial_option: chosen }),
  }));
}

/** `view.state.values` of the Edit modal as Slack sends it (only the part read here). */
export type DigestEditState = Readonly<
  Record<
    string,
    Readonly<
      Record<
        string,
        {
          readonly value?: string | null;
          readonly selected_option?: { readonly value?: string } | null;
          readonly selected_options?: readonly { readonly value?: string }[] | null;
        }
      >
    >
  >
>;

/**
 * The submission as one command of the digest grammar: `digest edit <id> <schedule> <window> top
 * N in <zone> by <metric> <posts> with <shown>`.
 */
export function editTextFromModal(id: string, state: DigestEditState): string {
  const read = (input: DigestEditInput): string => {
    const { blockId, actionId } = digestEditInputs[input];
    const value = state[blockId]?.[actionId];
    return cleanText(value?.selected_option?.value ?? value?.value ?? '');
  };
  const metric = read('metric') as Metric | typeof metricDefault | typeof followersChoice | '';
  const posts = postsChoices.find(([value]) => value === read('posts'))?.[2];
  const shown = read('shown');
  return [
    `digest edit ${id}`,
    read('schedule'),
    read('window'),
    read('top') && `top ${read('top')}`,
    read('zone') && `in ${read('zone')}`,
    metric && `by ${metric}`,
    posts ?? '',
    shown && `with ${shown}`,
  ]
    .filter((part) => part.length > 0)
    .join(' ');
}

/**
 * The grammar's complaint about a submission, under the input whose text holds the fragment it
 * quotes (the schedule's when none does), for a `response_action: 'errors'` answer.
 */
export function editModalErrors(error: ParseError, state: DigestEditState): Record<string, string> {
  const fragment = (error.fragment ?? '').toLowerCase();
  const typed: DigestEditInput[] = ['window', 'top', 'zone', 'schedule'];
  const input =
    (fragment === ''
      ? undefined
      : typed.find((each) => {
          const { blockId, actionId } = digestEditInputs[each];
          const value = (state[blockId]?.[actionId]?.value ?? '').toLowerCase();
          return value !== '' && (value.includes(fragment) || fragment.includes(value));
        })) ?? 'schedule';
  return { [digestEditInputs[input].blockId]: truncate(cleanText(error.message), 300) };
}
