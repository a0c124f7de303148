import { describe, expect, it } from 'vitest';
import type { RepostResult } from '../../../src/digests/delivery.ts';
import {
  renderRepostResult,
  renderUnconfirmedNotice,
} from '../../../src/render/digests/digest-unconfirmed.ts';
import { digestActionIds, readDigestSlotValue } from '../../../src/render/ids.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import { digest, mondayDate, now, texts } from '../helpers.ts';

const slot = new Date('2026-11-23T09:00:00Z');
const delivery = {
  digestId: '7K3M9Q',
  slot,
  owner: 'runner-b:U42',
  startedAt: slot,
} as const;

describe('renderUnconfirmedNotice', () => {
  it('says which run may be missing, why it was not sent again, and offers to post it now', () => {
    const message = renderUnconfirmedNotice(digest(), slot, { now });
    expect(texts(message.blocks)).toEqual([
      `:grey_question: Your digest *7K3M9Q* (top 10 of #hcsm, "patient safety" in <#C0123>, Mondays at 09:00 Europe/London) may not have posted its run of Mon Nov 23, 09:00 GMT (your time: ${mondayDate(1795424400, 'Nov 23, 2026 09:00 GMT')}): the app stopped, or Slack did not confirm the post, while it was posting. It was not sent again, to avoid posting it twice.\nLook in <#C0123>: if the run is not there, post it now.`,
      'It posts the window that run covers, once, however often the button is pressed.',
    ]);
    expect(message.text).toBe(
      'Your digest 7K3M9Q may not have posted its run of Mon Nov 23, 09:00 GMT in <#C0123>. Look there; if it is not there, post it now.',
    );
    const actions = message.blocks.find((block) => block.type === 'actions');
    expect(actions).toMatchObject({
      elements: [
        {
          action_id: digestActionIds.postUnconfirmed,
          text: { text: 'Post it now' },
          confirm: {
            text: { text: 'If the first post did reach <#C0123>, this run will be there twice.' },
          },
        },
      ],
    });
    const value =
      actions?.type === 'actions' && actions.elements[0]?.type === 'button'
        ? actions.elements[0].value
        : undefined;
    expect(readDigestSlotValue(value ?? '')).toEqual({ id: '7K3M9Q', slot });
    expect(checkBlockKitLimits(message)).toEqual([]);
  });
});

describe('renderRepostResult', () => {
  const run = 'the run of Mon Nov 23, 09:00 GMT of digest *7K3M9Q*';
  it.each<[string, RepostResult, string]>([
    ['posted', { outcome: 'posted', ts: '1.2' }, `:white_check_mark: Posted ${run} in <#C0123>.`],
    [
      'failed for sure',
      { outcome: 'failed', failure: { kind: 'transient', code: 'slack_rate_limited' } },
      `:warning: The run of Mon Nov 23, 09:00 GMT of digest *7K3M9Q* could not be posted: Slack was limiting how fast this app may post. Nothing was posted; press *Post it now* again to try again.`,
    ],
    [
      'unconfirmed again',
      { outcome: 'unconfirmed', failure: { kind: 'transient', code: 'slack_call_failed' } },
      `:grey_question: Slack did not confirm this post of ${run} either, so it may or may not be in <#C0123>. Look there; it was not sent again.`,
    ],
    [
      'already posted by the viewer',
      { outcome: 'already', delivery: { ...delivery, status: 'posted', repostBy: 'U42' } },
      `You already posted ${run} in <#C0123>, so it was not posted twice.`,
    ],
    [
      'already posted by someone else',
      { outcome: 'already', delivery: { ...delivery, status: 'posted', repostBy: 'U7' } },
      `<@U7> already posted ${run} in <#C0123>, so it was not posted twice.`,
    ],
    [
      'being posted by someone else',
      { outcome: 'already', delivery: { ...delivery, status: 'posting', repostBy: 'U7' } },
      `<@U7> already chose to post ${run}, so it was not posted twice. Look in <#C0123>.`,
    ],
    [
      'confirmed after all',
      { outcome: 'already', delivery: { ...delivery, status: 'posted' } },
      'The run of Mon Nov 23, 09:00 GMT of digest *7K3M9Q* did reach <#C0123>, so it was not posted again.',
    ],
  ])('says what pressing came to: %s', (_case, result, words) => {
    const message = renderRepostResult(digest(), slot, result, { now, viewerId: 'U42' });
    expect(message.text).toBe(words);
    expect(checkBlockKitLimits(message)).toEqual([]);
  });
});
