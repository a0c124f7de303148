/**
 * A digest's Edit modal, and its submission read back as one `digest edit <id> …` command.
 * Its settings are prefilled as words the digest grammar reads, so the modal and the command agree
 * and the grammar's errors show under the input they concern. Who to keep is the exception: its
 * selects hold the service's category names, which no grammar word names one by one (`orgs` is
 * five), so they are read as a filter beside the command and saved by the same edit.
 */
import type { InputBlock, ModalView, PlainTextOption } from '@slack/types';
import type { ParseError } from '../../errors.ts';
import type { Digest, PostWhen, Presentation } from '../../model/digest.ts';
import { type Metric, metricNames } from '../../model/metrics.ts';
import { type StakeholderFilter, stakeholderCategoryNames } from '../../model/stakeholders.ts';
import { context } from '../blocks.ts';
import { digestNoun, digestSubject, isPersonal } from '../digests/digest-words.ts';
import { schedulePhrase } from '../digests/schedule.ts';
import { cleanText, truncate } from '../format.ts';
import { type DigestEditInput, digestEditCallbackId, digestEditInputs } from '../ids.ts';
import { checked } from '../limits.ts';
import { metricName } from '../lookups/metric-words.ts';
import { categoryWords } from '../lookups/stakeholder-mix.ts';
import { duplicateWords } from './digest-management.ts';

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
      ...whoSelects(digest),
      ...(keepsCanvasChoice(digest) ? [canvasToggle(digest)] : []),
    ],
  };
  return checked(view, 'view');
}

/**
 * Slack's limits on a multi-select's options: beyond them `views.open` fails, so the option a
 * digest's filter cannot fit is left out of the choice rather than the modal not opening.
 */
const selectLimits = { options: 100, text: 75, value: 150 } as const;

/**
 * The service's categories, then any other name the digest keeps or leaves out (`Spam`, from `no
 * bots`), so its filter is prefilled whole and saving the modal unchanged keeps it.
 */
function whoChoices(digest: Pick<Digest, 'stakeholders'>): PlainTextOption[] {
  const chosen = [...(digest.stakeholders?.include ?? []), ...(digest.stakeholders?.exclude ?? [])];
  const names = [...new Set<string>([...stakeholderCategoryNames, ...chosen])].filter(
    (name) => name.length > 0 && name.length <= selectLimits.value,
  );
  return names
    .slice(0, selectLimits.options)
    .map((name) => option(name, truncate(categoryWords(name, 2), selectLimits.text)));
}

/** Only and Leave out, as in the lookup modal, prefilled with the digest's filter. */
function whoSelects(digest: Pick<Digest, 'stakeholders'>): InputBlock[] {
  const options = whoChoices(digest);
  const multi = (which: 'who' | 'without', label: string, hint: string, names: readonly string[]) =>
    optionalInput(
      which,
      label,
      (actionId) => {
        const initial = options.filter((each) => names.includes(each.value ?? ''));
        return {
          type: 'multi_static_select',
          action_id: actionId,
          placeholder: { type: 'plain_text', text: 'Everyone' },
          options,
          ...(initial.length === 0 ? {} : { initial_options: initial }),
        };
      },
      hint,
    );
  return [
    multi(
      'who',
      'Only',
      'Keep only these people, among the top 500. Empty: everyone.',
      digest.stakeholders?.include ?? [],
    ),
    multi(
      'without',
      'Leave out',
      'Drop these people, among the top 500.',
      digest.stakeholders?.exclude ?? [],
    ),
  ];
}

/**
 * A DM has no channel canvas and a watch is about who comes and goes, not a standing report:
 * neither is offered one, unless it keeps one already, which can then be turned off.
 */
function keepsCanvasChoice(
  digest: Pick<Digest, 'account' | 'channelId' | 'postWhen' | 'canvas'>,
): boolean {
  if (isPersonal(digest) || digest.account !== undefined) return false;
  return digestNoun(digest) === 'Digest' || digest.canvas?.enabled === true;
}

const canvasOn = 'on';

function canvasToggle(digest: Pick<Digest, 'canvas'>): InputBlock {
  const keep: PlainTextOption = option(canvasOn, 'Keep a canvas in the channel');
  keep.description = {
    type: 'plain_text',
    text: 'Rewritten after each post. Off: the canvas stays as it was last written.',
  };
  return optionalInput('canvas', 'Canvas', (actionId) => ({
    type: 'checkboxes',
    action_id: actionId,
    options: [keep],
    ...(digest.canvas?.enabled === true ? { initial_options: [keep] } : {}),
  }));
}

/** An input that may be left empty (a select of several, a checkbox). */
function optionalInput(
  which: Extract<DigestEditInput, 'who' | 'without' | 'canvas'>,
  label: string,
  element: (actionId: string) => InputBlock['element'],
  hint?: string,
): InputBlock {
  return { ...input(which, label, element, hint), optional: true };
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
 * N in <zone> by <metric> <posts> with <shown> canvas on|off` (the canvas only when the modal
 * offered it).
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
  const { blockId, actionId } = digestEditInputs.canvas;
  const canvas = state[blockId]?.[actionId];
  const kept = (canvas?.selected_options ?? []).some((each) => each.value === canvasOn);
  return [
    `digest edit ${id}`,
    read('schedule'),
    read('window'),
    read('top') && `top ${read('top')}`,
    read('zone') && `in ${read('zone')}`,
    metric && `by ${metric}`,
    posts ?? '',
    shown && `with ${shown}`,
    canvas === undefined ? '' : kept ? 'canvas on' : 'canvas off',
  ]
    .filter((part) => part.length > 0)
    .join(' ');
}

/**
 * Who to keep as the modal says: its filter, `everyone` when both selects are empty, undefined
 * when the submission has neither (a modal opened before they existed), which keeps the digest's.
 */
export function stakeholdersFromModal(
  state: DigestEditState,
): StakeholderFilter | 'everyone' | undefined {
  const names = (which: 'who' | 'without'): string[] | undefined => {
    const { blockId, actionId } = digestEditInputs[which];
    const value = state[blockId]?.[actionId];
    if (value === undefined) return undefined;
    const chosen = (value.selected_options ?? []).map((each) => each.value ?? '');
    return [...new Set(chosen.filter((name) => name.length > 0))];
  };
  const include = names('who');
  const exclude = names('without');
  if (include === undefined && exclude === undefined) return undefined;
  if ((include ?? []).length === 0 && (exclude ?? []).length === 0) return 'everyone';
  return { include: include ?? [], exclude: exclude ?? [] };
}

/**
 * People both kept and left out would keep no one of them: the modal stays open with the
 * names under Leave out; undefined when the filter can run.
 */
export function stakeholderModalErrors(
  filter: StakeholderFilter | 'everyone' | undefined,
): Record<string, string> | undefined {
  if (filter === undefined || filter === 'everyone') return undefined;
  const both = filter.include.filter((name) => filter.exclude.includes(name));
  if (both.length === 0) return undefined;
  const words = both.map((name) => categoryWords(name, 2));
  const listed =
    words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
  const message = `${listed} cannot be both kept and left out: take ${both.length === 1 ? 'it' : 'them'} out of Only or out of Leave out.`;
  return { [digestEditInputs.without.blockId]: truncate(cleanText(message), 300) };
}

/**
 * The grammar's complaint about a submission, under the input whose text holds the fragment it
 * quotes (the canvas checkbox for a canvas refused; the schedule's when none does), for a
 * `response_action: 'errors'` answer.
 */
export function editModalErrors(error: ParseError, state: DigestEditState): Record<string, string> {
  const fragment = (error.fragment ?? '').toLowerCase();
  const canvas = digestEditInputs.canvas.blockId;
  if (fragment === 'canvas' && state[canvas] !== undefined) {
    return { [canvas]: truncate(cleanText(error.message), 300) };
  }
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

/**
 * An edit that would repeat `existing`, under the first of the `changed` inputs the modal has,
 * for a `response_action: 'errors'` answer; undefined when it has none of them, for the answer
 * every other refusal gets.
 */
export function duplicateModalErrors(
  existing: Digest,
  edited: Pick<Digest, 'id' | 'postWhen'>,
  changed: readonly DigestEditInput[],
  state: DigestEditState,
): Record<string, string> | undefined {
  const input = changed.find((each) => state[digestEditInputs[each].blockId] !== undefined);
  if (input === undefined) return undefined;
  const where = isPersonal(existing) ? 'your DM with me' : 'the same channel';
  const message = `${duplicateWords(existing, edited, where)} Change this, or remove ${existing.id}.`;
  return { [digestEditInputs[input].blockId]: truncate(cleanText(message), 300) };
}
