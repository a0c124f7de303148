import { describe, expect, it } from 'vitest';
import type { OutageCause } from '../../../src/model/digest.ts';
import {
  renderDigestsResumed,
  renderOutageNotice,
} from '../../../src/render/digests/digest-outages.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import { renderDigestList } from '../../../src/render/management/digest-management.ts';
import { digest, mondayDate, now, texts } from '../helpers.ts';

describe('renderOutageNotice', () => {
  it.each([
    [
      'slack_token_rejected',
      "Slack refused this app's bot token",
      'An admin must reinstall the app from manifest.yml or update SLACK_BOT_TOKEN.',
    ],
    [
      'analytics_credentials_rejected',
      "the analytics service rejected this app's credentials",
      'An admin must check ANALYTICS_CLIENT_ID and ANALYTICS_CLIENT_SECRET with the analytics provider.',
    ],
    ['slack_rate_limited', 'Slack kept limiting how fast this app may post', undefined],
    [
      'analytics_rate_limited',
      "the analytics service kept limiting this app's requests",
      undefined,
    ],
    [
      'analytics_unavailable',
      'the analytics service was unavailable or could not be reached',
      "If it lasts, an admin should check the app's connection to the analytics service.",
    ],
    [
      'slack_unreachable',
      'Slack could not be reached',
      "If it lasts, an admin should check the app's connection to Slack.",
    ],
  ] as const)(
    'tells the admins what happened (%s), what to do and that nothing needs resuming',
    (cause: OutageCause, what, fix) => {
      const message = renderOutageNotice('T1', cause);
      const [head, tail] = texts(message.blocks);
      expect(head).toBe(
        `:double_vertical_bar: *Scheduled digests in this workspace are on hold: ${what}.*${fix === undefined ? '' : `\n${fix}`}`,
      );
      expect(tail).toContain('They resume by themselves once it works again');
      expect(tail).toContain('No digest was paused.');
      expect(message.text).toContain(what);
      expect(checkBlockKitLimits(message)).toEqual([]);
    },
  );
});

describe('renderDigestList during an outage', () => {
  it('says under the heading that the workspace’s digests are on hold, since when and why', () => {
    const message = renderDigestList([digest()], {
      now,
      channelId: 'C0123',
      viewerId: 'U42',
      outage: {
        teamId: 'T1',
        cause: 'analytics_unavailable',
        since: new Date('2026-11-21T09:00:00Z'),
        probeAt: new Date('2026-11-21T09:01:00Z'),
        probes: 0,
      },
    });
    expect(texts(message.blocks)[1]).toBe(
      ':double_vertical_bar: Digests in this workspace are on hold since Sat Nov 21, 09:00 GMT: the analytics service was unavailable or could not be reached. They resume by themselves once it works again; runs missed meanwhile show as skipped.',
    );
  });
});

describe('digests of a workspace the app left', () => {
  it('say in the list why they are paused and that they resume by themselves', () => {
    const message = renderDigestList(
      [digest({ status: 'paused', pauseReason: { kind: 'app_uninstalled' } })],
      { now, channelId: 'C0123', viewerId: 'U42' },
    );
    expect(texts(message.blocks)[1]).toContain(
      '*Paused*: the app was uninstalled from this workspace; it resumes by itself once the app works here again',
    );
  });

  it('are listed with their next run when they resume', () => {
    const message = renderDigestsResumed([digest(), digest({ id: 'ABCDEF' })], { now });
    expect(texts(message.blocks)[0]).toBe(
      ':arrow_forward: The app works in this workspace again, so your digests run again.\n' +
        `• *7K3M9Q* (top 10 of #hcsm, "patient safety" in <#C0123>, Mondays at 09:00 Europe/London): next run Mon Nov 23, 09:00 GMT (your time: ${mondayDate(1795424400, 'Nov 23, 2026 09:00 GMT')})\n` +
        `• *ABCDEF* (top 10 of #hcsm, "patient safety" in <#C0123>, Mondays at 09:00 Europe/London): next run Mon Nov 23, 09:00 GMT (your time: ${mondayDate(1795424400, 'Nov 23, 2026 09:00 GMT')})`,
    );
    expect(message.text).toBe(
      'The app works in this workspace again: your digests 7K3M9Q, ABCDEF run again.',
    );
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it('say, after an outage, why they were held, which runs each skipped, and offer Run now', () => {
    const skipped = new Map([
      [
        '7K3M9Q',
        {
          first: [1, 2, 3, 4, 5].map((day) => new Date(`2026-11-0${day + 1}T09:00:00Z`)),
          count: 7,
        },
      ],
      ['ABCDEF', { first: [new Date('2026-11-16T09:00:00Z')], count: 1 }],
    ]);
    const message = renderDigestsResumed(
      [digest(), digest({ id: 'ABCDEF' }), digest({ id: 'QUIET1' })],
      { now, cause: 'analytics_unavailable', skipped },
    );
    const next = `next run Mon Nov 23, 09:00 GMT (your time: ${mondayDate(1795424400, 'Nov 23, 2026 09:00 GMT')})`;
    const about = '(top 10 of #hcsm, "patient safety" in <#C0123>, Mondays at 09:00 Europe/London)';
    expect(texts(message.blocks)).toEqual([
      ':arrow_forward: Your digests run again: scheduled digests in this workspace were on hold because the analytics service was unavailable or could not be reached.\n' +
        `• *7K3M9Q* ${about}: ${next}\n` +
        '      skipped 7 runs: Mon Nov 2, 09:00 GMT, Tue Nov 3, 09:00 GMT, Wed Nov 4, 09:00 GMT, Thu Nov 5, 09:00 GMT, Fri Nov 6, 09:00 GMT and 2 more\n' +
        `• *ABCDEF* ${about}: ${next}\n` +
        '      skipped 1 run: Mon Nov 16, 09:00 GMT\n' +
        `• *QUIET1* ${about}: ${next}`,
      'Skipped runs are not posted later. *Run now* posts a digest now, covering as long a window as a scheduled run, up to now. `/influencers digests` in a channel lists its digests.',
    ]);
    expect(
      message.blocks.flatMap((block) =>
        block.type === 'actions'
          ? [
              {
                blockId: block.block_id,
                buttons: block.elements.map((e) => ('value' in e ? e.value : '')),
              },
            ]
          : [],
      ),
    ).toEqual([
      { blockId: 'digest_notice:7K3M9Q', buttons: ['7K3M9Q'] },
      { blockId: 'digest_notice:ABCDEF', buttons: ['ABCDEF'] },
    ]);
    expect(message.text).toBe(
      'Your digests 7K3M9Q, ABCDEF, QUIET1 run again. Runs of 7K3M9Q, ABCDEF were skipped meanwhile: run them now from this message.',
    );
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it('offer Run now for twenty digests at most, within Block Kit’s limits', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      digest({ id: `ID${String(i).padStart(4, '0')}` }),
    );
    const skipped = new Map(
      many.map((each) => [each.id, { first: [new Date('2026-11-16T09:00:00Z')], count: 1 }]),
    );
    const message = renderDigestsResumed(many, { now, cause: 'slack_unreachable', skipped });
    expect(message.blocks.filter((block) => block.type === 'actions')).toHaveLength(20);
    expect(checkBlockKitLimits(message)).toEqual([]);
  });
});
