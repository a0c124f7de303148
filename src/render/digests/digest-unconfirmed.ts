/**
 * A slot whose post may not have reached its channel, in words: its creator's DM, and a repost.
 * Its runner stopped mid-post, or Slack never confirmed the post. The DM comes once, with "Post it
 * now"; the person who presses it reads what the repost came to. The engine never posts such a
 * slot again by itself.
 */
import type { ActionsBlock } from '@slack/types';
import type { RepostResult } from '../../digests/delivery.ts';
import type { Digest } from '../../model/digest.ts';
import type { SlackMessage } from '../../model/message.ts';
import { context, section } from '../blocks.ts';
import { escapeMrkdwn, truncateMrkdwn } from '../format.ts';
import { digestActionIds, digestSlotValue } from '../ids.ts';
import { blockKitLimits, checked } from '../limits.ts';
import { failureWords } from './digest-failures.ts';
import {
  digestChannel,
  digestPerson,
  digestSubject,
  runTime,
  scheduleWords,
  zonedTime,
} from './digest-words.ts';

export interface UnconfirmedNoticeOptions {
  readonly now: Date;
}

/**
 * The DM to a digest's creator about one slot whose post may not have reached the channel: which
 * digest and run, why nothing was sent again, and a "Post it now" button (with a confirmation,
 * since the first post may be there after all). The engine's `RenderUnconfirmedNotice` calls it
 * with the digest, the slot and its instant.
 */
export function renderUnconfirmedNotice(
  digest: Digest,
  slot: Date,
  options: UnconfirmedNoticeOptions,
): SlackMessage {
  const id = escapeMrkdwn(digest.id);
  const channel = digestChannel(digest.channelId);
  const run = runTime(slot, digest.schedule.zone, options.now);
  const head = `:grey_question: Your digest *${id}* (${digestSubject(digest)}, ${escapeMrkdwn(scheduleWords(digest))}) may not have posted its run of ${run}: the app stopped, or Slack did not confirm the post, while it was posting. It was not sent again, to avoid posting it twice.`;
  const actions: ActionsBlock = {
    type: 'actions',
    elements: [
      {
        type: 'button',
        action_id: digestActionIds.postUnconfirmed,
        text: { type: 'plain_text', text: 'Post it now' },
        value: digestSlotValue(digest.id, slot),
        style: 'primary',
        confirm: {
          title: { type: 'plain_text', text: 'Post this run now?' },
          text: {
            type: 'mrkdwn',
            text: `If the first post did reach ${channel}, this run will be there twice.`,
          },
          confirm: { type: 'plain_text', text: 'Post it' },
          deny: { type: 'plain_text', text: 'Not now' },
        },
      },
    ],
  };
  const blocks = [
    section(
      truncateMrkdwn(
        `${head}\nLook in ${channel}: if the run is not there, post it now.`,
        blockKitLimits.sectionText,
      ),
    ),
    actions,
    context('It posts the window that run covers, once, however often the button is pressed.'),
  ];
  const text = truncateMrkdwn(
    `Your digest ${id} may not have posted its run of ${zonedTime(slot, digest.schedule.zone, options.now)} in ${channel}. Look there; if it is not there, post it now.`,
    blockKitLimits.fallbackText,
  );
  return checked({ text, blocks });
}

export interface RepostResultOptions {
  readonly now: Date;
  /** Who pressed: "you" rather than their mention. */
  readonly viewerId?: string;
}

/** What "Post it now" came to, for the person who pressed it. */
export function renderRepostResult(
  digest: Digest,
  slot: Date,
  result: RepostResult,
  options: RepostResultOptions,
): SlackMessage {
  const channel = digestChannel(digest.channelId);
  const what = `the run of ${zonedTime(slot, digest.schedule.zone, options.now)} of digest *${escapeMrkdwn(digest.id)}*`;
  const who = (userId: string) => (userId === options.viewerId ? 'You' : digestPerson(userId));
  let text: string;
  switch (result.outcome) {
    case 'posted':
      text = `:white_check_mark: Posted ${what} in ${channel}.`;
      break;
    case 'failed':
      text = `:warning: ${capitalised(what)} could not be posted: ${failureWords(result.failure.code, result.failure.channelProblem ?? result.failure.blockType)}. Nothing was posted; press *Post it now* again to try again.`;
      break;
    case 'unconfirmed':
      text = `:grey_question: Slack did not confirm this post of ${what} either, so it may or may not be in ${channel}. Look there; it was not sent again.`;
      break;
    case 'already': {
      const { delivery } = result;
      const by = delivery.repostBy;
      if (delivery.status === 'posted') {
        text =
          by === undefined
            ? `${capitalised(what)} did reach ${channel}, so it was not posted again.`
            : `${who(by)} already posted ${what} in ${channel}, so it was not posted twice.`;
      } else if (delivery.status === 'posting' && by !== undefined) {
        text = `${who(by)} already chose to post ${what}, so it was not posted twice. Look in ${channel}.`;
      } else if (delivery.status === 'posting') {
        text = `${capitalised(what)} is being posted right now, so it was not posted twice.`;
      } else {
        text = `${capitalised(what)} was not left unconfirmed, so there is nothing to post.`;
      }
      break;
    }
  }
  const message = truncateMrkdwn(text, blockKitLimits.fallbackText);
  return checked({ text: message, blocks: [section(message)] });
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
