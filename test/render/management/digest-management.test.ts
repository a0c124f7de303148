import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runWindow } from '../../../src/digests/run-window.ts';
import { defined } from '../../../src/model/defined.ts';
import type { Digest } from '../../../src/model/digest.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { rankChanges } from '../../../src/model/rank-changes.ts';
import {
  renderDigestMessage,
  renderDigestPaused,
} from '../../../src/render/digests/digest-post.ts';
import { digestActionIds, digestActionsBlockId } from '../../../src/render/ids.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import {
  renderDigestActionResult,
  renderDigestCreated,
  renderDigestHomeSection,
  renderDigestList,
} from '../../../src/render/management/digest-management.ts';
import { renderHome } from '../../../src/render/management/home.ts';
import { nextRuns } from '../../../src/time/schedule.ts';
import { digest, mondayDate, now, query, result, texts } from '../helpers.ts';

describe('renderDigestCreated', () => {
  it('states what, where, the schedule, the next three runs with their windows, and how to stop it', () => {
    const created = digest();
    const runs = nextRuns(created.schedule, now, 3);
    const message = renderDigestCreated(created, {
      now,
      nextRuns: runs,
      windows: runs.map((run) => runWindow(created, run)),
      botUserId: 'UBOT',
      notes: ['No time was given, so it runs at 09:00.'],
    });
    expect(texts(message.blocks)).toEqual([
      ':white_check_mark: *Digest 7K3M9Q created.* <@UBOT> will post the top 10 of #hcsm, "patient safety" in <#C0123>.',
      '*Schedule*: Mondays at 09:00 Europe/London\n*Each run covers*: the 7 days before each run',
      '*Next runs*\n' +
        `• Mon Nov 23, 09:00 GMT (your time: ${mondayDate(1795424400, 'Nov 23, 2026 09:00 GMT')})\n` +
        '    covering Nov 16 09:00 to Nov 23 09:00 GMT\n' +
        `• Mon Nov 30, 09:00 GMT (your time: ${mondayDate(1796029200, 'Nov 30, 2026 09:00 GMT')})\n` +
        '    covering Nov 23 09:00 to Nov 30 09:00 GMT\n' +
        `• Mon Dec 7, 09:00 GMT (your time: ${mondayDate(1796634000, 'Dec 7, 2026 09:00 GMT')})\n` +
        '    covering Nov 30 09:00 to Dec 7 09:00 GMT',
      'No time was given, so it runs at 09:00.',
      "Pause it with `/influencers digest pause 7K3M9Q`, remove it with `/influencers digest remove 7K3M9Q`, see this channel's digests with `/influencers digests`.",
    ]);
    expect(message.text).toBe(
      'Digest 7K3M9Q created: top 10 of #hcsm, "patient safety" in <#C0123>, Mondays at 09:00 Europe/London. Next run Mon Nov 23, 09:00 GMT.',
    );
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it('shows New York runs at 09:00 local on both sides of the DST change, and the 31st caveat', () => {
    const created = digest({
      schedule: {
        kind: 'cron',
        expression: '0 9 31 * *',
        zone: 'America/New_York',
        cadence: 'monthly',
      },
    });
    const from = new Date('2027-02-01T00:00:00Z');
    const runs = nextRuns(created.schedule, from, 3);
    const message = renderDigestCreated(created, {
      now: from,
      nextRuns: runs,
      windows: runs.map((run) => runWindow(created, run)),
    });
    const [, schedule, next, note] = texts(message.blocks);
    expect(schedule).toBe(
      '*Schedule*: On the 31st of every month at 09:00 America/New_York (skipped in months without a 31st)\n*Each run covers*: the month so far, from the 1st at 00:00 to the run, and the month before it too after a month without a 31st',
    );
    expect(next).toContain('• Wed Mar 31, 09:00 EDT');
    expect(next).toContain('    covering Feb 1 00:00 EST to Mar 31 09:00 EDT');
    expect(next).toContain('    covering Apr 1 00:00 to May 31 09:00 EDT');
    expect(next).toContain('• Mon May 31, 09:00 EDT');
    expect(next).toContain('• Sat Jul 31, 09:00 EDT');
    expect(note).toBe(
      'Months without a 31st are skipped. To run at the end of every month, create it with “on the last day of every month” instead.\n' +
        'A monthly digest on the 1st to the 28th covers the previous calendar month; one on the 29th to the 31st or on the last day covers its own month so far (from the 1st at 00:00 to the run), with any month it skipped.',
    );
    expect(texts(message.blocks)[0]).toContain('I will post the top 10');
  });
});

/** The confirmation of `created` with its next three runs from `now`, as the flows build it. */
function confirmation(
  created: Digest,
  options: Partial<Parameters<typeof renderDigestCreated>[1]> = {},
): SlackMessage {
  const runs = nextRuns(created.schedule, now, 3);
  return renderDigestCreated(created, {
    now,
    nextRuns: runs,
    windows: runs.map((run) => runWindow(created, run)),
    ...options,
  });
}

describe('renderDigestCreated for a watch and an edit', () => {
  it('says a watch posts when someone new enters the top N', () => {
    const watch = digest({
      postWhen: 'new',
      schedule: { kind: 'cron', expression: '0 * * * *', zone: 'UTC', cadence: 'custom' },
    });
    const message = confirmation(watch, { botUserId: 'UBOT' });
    const [head, schedule] = texts(message.blocks);
    expect(head).toBe(
      ':white_check_mark: *Watch 7K3M9Q created.* <@UBOT> will post in <#C0123> when someone new enters the top 10 of #hcsm, "patient safety".',
    );
    expect(schedule).toContain('*Posts*: only when someone new enters the top 10');
    expect(schedule).toContain('Every hour at :00 UTC');
    expect(message.text).toMatch(/^Watch 7K3M9Q created: /);
  });

  it('says a watch of one account DMs its creator when that account enters or leaves', () => {
    const watch = digest({
      postWhen: 'new',
      account: 'DrFerreiraI',
      channelId: 'D0PERSON1',
      schedule: { kind: 'cron', expression: '0 * * * *', zone: 'UTC', cadence: 'custom' },
    });
    const [head, schedule] = texts(confirmation(watch).blocks);
    expect(head).toBe(
      ':white_check_mark: *Watch 7K3M9Q created.* You will get a DM from me when @DrFerreiraI enters or leaves the top 10 of #hcsm, "patient safety"; `/influencers digests` in that DM lists it.',
    );
    expect(schedule).toContain('*Posts*: only when @DrFerreiraI enters or leaves the top 10');
  });

  it('states the metric and the presentation chosen', () => {
    const [, schedule] = texts(
      confirmation(digest({ metric: 'impressions', presentation: 'table', postWhen: 'changed' }))
        .blocks,
    );
    expect(schedule).toBe(
      '*Schedule*: Mondays at 09:00 Europe/London\n' +
        '*Each run covers*: the 7 days before each run\n' +
        '*Posts*: only when the top 10 changes (who is in it, or their order)\n' +
        '*Ranked by*: impressions\n' +
        '*Shown as*: a table',
    );
  });

  it('says when the databases could not be checked yet', () => {
    const notes = texts(confirmation(digest(), { databasesUnchecked: true }).blocks);
    expect(notes).toContain(
      ':warning: The analytics service could not be reached, so its databases could not be checked yet: the first run will say if one is wrong.',
    );
  });

  it('says a digest was updated', () => {
    const message = confirmation(digest(), { updated: true });
    expect(texts(message.blocks)[0]).toMatch(/^:white_check_mark: \*Digest 7K3M9Q updated\.\* /);
  });
});

describe('renderDigestList', () => {
  const failed = digest({
    id: 'ABCDEF',
    creatorId: 'U7',
    status: 'paused',
    pauseReason: { kind: 'failures', failures: 3, code: 'channel_unreachable', detail: 'archived' },
    lastRun: {
      slot: new Date('2026-11-16T09:00:00Z'),
      outcome: 'failed',
      at: new Date('2026-11-16T09:00:05Z'),
      errorCode: 'access_denied',
    },
  });

  it('lists each digest with its schedule, runs, status and buttons', () => {
    const message = renderDigestList(
      [digest(), failed, digest({ id: 'ZZZZZZ', channelId: 'C9' })],
      {
        now,
        channelId: 'C0123',
        viewerId: 'U42',
      },
    );
    expect(message.text).toBe('2 digests in this channel: 7K3M9Q, ABCDEF');
    expect(texts(message.blocks)).toEqual([
      '*Digests in <#C0123>* (2)',
      '*7K3M9Q* · top 10 of #hcsm, "patient safety"\n' +
        'Mondays at 09:00 Europe/London · covers the 7 days before each run\n' +
        `Next run: Mon Nov 23, 09:00 GMT (your time: ${mondayDate(1795424400, 'Nov 23, 2026 09:00 GMT')})\n` +
        'Last run: none yet\n' +
        'Created by you',
      '*ABCDEF* · top 10 of #hcsm, "patient safety" · :double_vertical_bar: *Paused*: the channel was archived (3 failed runs in a row)\n' +
        'Mondays at 09:00 Europe/London · covers the 7 days before each run\n' +
        'Next run: none while paused; Resume schedules the next one.\n' +
        "Last run: Mon Nov 16, 09:00 GMT, failed: a database in it is not accessible to this app's analytics account\n" +
        'Created by <@U7>',
    ]);
    const actions = message.blocks.filter((block) => block.type === 'actions');
    expect(actions.map((block) => block.block_id)).toEqual([
      digestActionsBlockId('7K3M9Q'),
      digestActionsBlockId('ABCDEF'),
    ]);
    expect(
      actions.map((block) =>
        block.type === 'actions'
          ? block.elements.map((e) => (e.type === 'button' ? [e.action_id, e.value] : []))
          : [],
      ),
    ).toEqual([
      [
        [digestActionIds.runNow, '7K3M9Q'],
        [digestActionIds.pause, '7K3M9Q'],
        [digestActionIds.edit, '7K3M9Q'],
        [digestActionIds.remove, '7K3M9Q'],
      ],
      [
        [digestActionIds.runNow, 'ABCDEF'],
        [digestActionIds.resume, 'ABCDEF'],
        [digestActionIds.edit, 'ABCDEF'],
        [digestActionIds.remove, 'ABCDEF'],
      ],
    ]);
    const remove = actions[0]?.type === 'actions' ? actions[0].elements[3] : undefined;
    expect(remove).toMatchObject({
      style: 'danger',
      confirm: {
        title: { type: 'plain_text', text: 'Remove this digest?' },
        text: {
          type: 'mrkdwn',
          text: 'Digest 7K3M9Q (top 10 of #hcsm, "patient safety") stops and is deleted. This cannot be undone.',
        },
        confirm: { type: 'plain_text', text: 'Remove' },
        deny: { type: 'plain_text', text: 'Keep it' },
      },
    });
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it.each([
    ['posted', undefined, 'Mon Nov 16, 09:00 GMT, posted'],
    [
      'skipped',
      undefined,
      'Mon Nov 16, 09:00 GMT, skipped: the app was not running at the time and the slot was too old to post late',
    ],
    [
      'unconfirmed',
      undefined,
      'Mon Nov 16, 09:00 GMT, unconfirmed: posting started but was never confirmed, so it may be missing from the channel',
    ],
    [
      'failed',
      'channel_unreachable',
      'Mon Nov 16, 09:00 GMT, failed: I could not post in the channel',
    ],
    [
      'failed',
      'unknown',
      'Mon Nov 16, 09:00 GMT, failed: an unexpected error (the details are in the app logs)',
    ],
  ] as const)('words a last run that %s (%s)', (outcome, errorCode, words) => {
    const listed = digest({
      lastRun: {
        slot: new Date('2026-11-16T09:00:00Z'),
        outcome,
        at: now,
        ...defined({ errorCode }),
      },
    });
    const message = renderDigestList([listed], { now, channelId: 'C0123', viewerId: 'U1' });
    expect(texts(message.blocks)[1]).toContain(`\nLast run: ${words}\n`);
  });

  it('says how to create one when the channel has none', () => {
    const message = renderDigestList([], { now, channelId: 'C0123', viewerId: 'U42' });
    expect(texts(message.blocks)).toEqual([
      'No digests in <#C0123> yet. Create one by naming the databases and a schedule:\n' +
        '• `/influencers digest #hcsm every monday at 9am`\n' +
        '• `/influencers digest #bcsm, group:Oncology weekdays at 8:30`\n' +
        'Type `/influencers digest help` for every option.',
    ]);
  });

  it('lists 24 digests within 50 blocks, and the rest on the next page', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      digest({ id: `A${String(i).padStart(5, '0')}` }),
    );
    const message = renderDigestList(many, { now, channelId: 'C0123', viewerId: 'U42' });
    expect(message.blocks).toHaveLength(50);
    const actions = message.blocks.filter((block) => block.type === 'actions');
    expect(actions.map((block) => block.block_id)).toEqual([
      ...many.slice(0, 24).map((each) => digestActionsBlockId(each.id)),
      'digest_list_pages',
    ]);
    expect(checkBlockKitLimits(message)).toEqual([]);
  });
});

describe('renderDigestHomeSection', () => {
  it('lists the person’s digests in every channel with the same buttons', () => {
    const blocks = renderDigestHomeSection([digest(), digest({ id: 'B00000', channelId: 'C9' })], {
      now,
      viewerId: 'U42',
    });
    expect(texts(blocks)[0]).toBe('*Your digests* (2)');
    expect(texts(blocks)[2]).toMatch(/^\*B00000\* · top 10 of #hcsm, "patient safety" in <#C9>\n/);
    expect(blocks.filter((block) => block.type === 'actions')).toHaveLength(2);
    const view = renderHome({ sections: blocks });
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
  });

  it('says how to create one when there are none', () => {
    expect(texts(renderDigestHomeSection([], { now }))).toEqual([
      '*Your digests*\nYou have no digests yet. Create one in any channel, for example `/influencers digest #hcsm every monday at 9am`, and it posts there on its schedule.',
    ]);
  });
});

describe('renderDigestActionResult', () => {
  const what = 'Digest *7K3M9Q* (top 10 of #hcsm, "patient safety" in <#C0123>)';
  it.each([
    [
      'pause',
      { action: 'pause', digest: digest() },
      `:double_vertical_bar: ${what} is paused. Resume it with \`/influencers digest resume 7K3M9Q\`.`,
    ],
    [
      'resume',
      { action: 'resume', digest: digest() },
      `:arrow_forward: ${what} is running again. Next run: Mon Nov 23, 09:00 GMT (your time: ${mondayDate(1795424400, 'Nov 23, 2026 09:00 GMT')}).`,
    ],
    [
      'pause of a digest already paused',
      { action: 'pause', digest: digest(), changed: false },
      `:double_vertical_bar: ${what} was already paused. Resume it with \`/influencers digest resume 7K3M9Q\`.`,
    ],
    [
      'resume of a digest already running',
      { action: 'resume', digest: digest(), changed: false },
      `:arrow_forward: ${what} was already running. Next run: Mon Nov 23, 09:00 GMT (your time: ${mondayDate(1795424400, 'Nov 23, 2026 09:00 GMT')}).`,
    ],
    [
      'remove',
      { action: 'remove', digest: digest() },
      `:wastebasket: ${what} was removed. It will not post again.`,
    ],
    [
      'run that started',
      { action: 'run', digest: digest(), outcome: 'started' },
      `:hourglass_flowing_sand: Running ${what} now: it will appear in <#C0123> shortly.`,
    ],
    [
      'run that posted',
      { action: 'run', digest: digest(), outcome: 'posted' },
      `:white_check_mark: ${what} was posted in <#C0123>.`,
    ],
    [
      'run the schedule is already posting',
      { action: 'run', digest: digest(), outcome: 'already' },
      `${what} is being posted right now by its scheduled run, so it was not posted twice.`,
    ],
    [
      'run Slack did not confirm',
      { action: 'run', digest: digest(), outcome: 'unconfirmed' },
      `:grey_question: Slack did not confirm ${what} in time, so it may or may not be in <#C0123>. Check the channel; it was not sent again, to avoid a duplicate.`,
    ],
    [
      'run that failed',
      {
        action: 'run',
        digest: digest(),
        outcome: 'failed',
        failure: { code: 'channel_unreachable', detail: 'not_found' },
      },
      `:warning: ${what} could not be posted: the channel no longer exists, or I can no longer see it.`,
    ],
  ] as const)('answers a %s', (_label, action, text) => {
    const message = renderDigestActionResult(action, { now });
    expect(message).toEqual({
      text,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
    });
  });
});

describe('digest rendering limits', () => {
  const hostile = fc.string({ maxLength: 400 });
  const arbitraryDigest = fc
    .record({
      id: fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{6}$/),
      databases: fc.array(hostile, { minLength: 1, maxLength: 10 }),
      top: fc.integer({ min: 1, max: 50 }),
      paused: fc.boolean(),
      detail: fc.option(hostile, { nil: undefined }),
    })
    .map(({ id, databases, top, paused, detail }) =>
      digest({
        id,
        databases,
        top,
        status: paused ? 'paused' : 'active',
        ...(paused
          ? {
              pauseReason: {
                kind: 'failures',
                failures: 3,
                code: 'channel_unreachable',
                ...defined({ detail }),
              },
            }
          : {}),
        lastRun: {
          slot: now,
          outcome: 'failed',
          at: now,
          errorCode: 'channel_unreachable',
          ...defined({ errorDetail: detail }),
        },
      }),
    );

  it('keeps every list, Home section, confirmation and notice within the limits', () => {
    fc.assert(
      fc.property(fc.array(arbitraryDigest, { maxLength: 60 }), hostile, (digests, name) => {
        const list: SlackMessage = renderDigestList(digests, {
          now,
          channelId: 'C0123',
          viewerId: 'U42',
        });
        expect(checkBlockKitLimits(list)).toEqual([]);
        const home = renderHome({ sections: renderDigestHomeSection(digests, { now }) });
        expect(checkBlockKitLimits(home, 'view')).toEqual([]);
        for (const one of digests.slice(0, 3)) {
          const runs = nextRuns(one.schedule, now, 3);
          const created = renderDigestCreated(one, {
            now,
            nextRuns: runs,
            windows: runs.map((run) => runWindow(one, run)),
            notes: [name],
          });
          expect(checkBlockKitLimits(created)).toEqual([]);
          expect(checkBlockKitLimits(renderDigestPaused(one))).toEqual([]);
          const posted = renderDigestMessage(one, query, result, rankChanges([], []), {
            createdByName: name,
          });
          expect(checkBlockKitLimits(posted)).toEqual([]);
        }
      }),
      { numRuns: 60 },
    );
  });
});
