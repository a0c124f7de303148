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
} as const;

export type DigestActionId = (typeof digestActionIds)[keyof typeof digestActionIds];

/** `block_id` prefix of the buttons under one digest: block ids must be unique in a surface. */
export const digestActionsBlockPrefix = 'digest_actions:';

/** The `block_id` of the buttons under the digest `id`. */
export function digestActionsBlockId(id: string): string {
  return `${digestActionsBlockPrefix}${id}`;
}

/** `block_id` of the App Home "Your digests" heading, so the Slack layer can find the section. */
export const digestHomeBlockId = 'digest_home';
