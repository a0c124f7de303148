import { describe, expect, it } from 'vitest';
import type { OutageCause } from '../../src/model/digest.ts';
import { renderDigestList } from '../../src/render/digest-management.ts';
import { renderDigestsResumed, renderOutageNotice } from '../../src/render/digest-outages.ts';
import { checkBlockKitLimits } from '../../src/render/limits.ts';
import { digest, mondayDate, now, texts } from './helpers.ts';

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
});
