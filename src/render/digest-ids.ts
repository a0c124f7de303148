/**
 * Identifiers the digest messages and the Home section carry and the Slack layer listens for. Every
 * digest button carries the digest's id as its `value`, so one handler per action serves the
 * channel list and the Home tab alike.
 */

/** `action_id` of the digest buttons; each button's `value` is the digest id. */
export const digestActionIds = {
  runNow: 'digest_run_now',
  pause: 'digest_pause',
  resume: 'digest_resume',
  /** Carries a confirm dialog: Slack sends the action only once the person confirms. */
  remove: 'digest_remove',
  /** Opens the Edit modal. */
  edit: 'digest_edit',
} as const;

/** `callback_id` of the Edit modal; its `private_metadata` says which digest and where from. */
export const digestEditCallbackId = 'digest_edit_modal';

/** The Edit modal's inputs: `view.state.values[blockId][actionId]` on submission. */
export const digestEditInputs = {
  schedule: { blockId: 'digest_edit_schedule', actionId: 'schedule' },
  window: { blockId: 'digest_edit_window', actionId: 'window' },
  top: { blockId: 'digest_edit_top', actionId: 'top' },
  zone: { blockId: 'digest_edit_zone', actionId: 'zone' },
  metric: { blockId: 'digest_edit_metric', actionId: 'metric' },
  posts: { blockId: 'digest_edit_posts', actionId: 'posts' },
  shown: { blockId: 'digest_edit_shown', actionId: 'shown' },
} as const;

export type DigestEditInput = keyof typeof digestEditInputs;

export type DigestActionId = (typeof digestActionIds)[keyof typeof digestActionIds];

/** `block_id` prefix of the buttons under one digest: block ids must be unique in a surface. */
export const digestActionsBlockPrefix = 'digest_actions:';

/** The `block_id` of the buttons under the digest `id`. */
export function digestActionsBlockId(id: string): string {
  return `${digestActionsBlockPrefix}${id}`;
}

/** `block_id` of the App Home "Your digests" heading, so the Slack layer can find the section. */
export const digestHomeBlockId = 'digest_home';
