/**
 * Conferences end to end: started by a signed slash command in the running app, run by the digest
 * tick against the sandbox, seen through the fake Slack, on SQLite and on PostgreSQL. Time moves
 * as the digest tests move it: each tick is `runDue(instant)`, and the app's clock reads the same
 * instant.
 */
import { describe, expect, it } from 'vitest';
import { announcePostgresSkip } from '../digests/helpers.ts';
import { blocksOf, conferenceE2e, inChannel } from '../helpers/conference-e2e.ts';
import { eventCallback, homeOpenedEvent, teamId } from '../helpers/payloads.ts';

announcePostgresSkip();

const { app, command, tick, adapters, setNow } = await conferenceE2e('conferences-e2e-');

for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`conferences in Slack (${adapter.name})`, () => {
    it('pins a leaderboard, updates it in place, replaces one Slack will not edit, recaps each day in the thread, survives a restart and ends final', async () => {
      const database = adapter.open();
      const channel = 'C0CONF0001';
      setNow(new Date('2026-11-26T14:00:00Z'));
      let harness = await app(await database.store());
      try {
        const confirmation = await command(
          harness,
          'conference #hcsm from Nov 26 to Nov 27 in America/Chicago watch @nobody_here top 5 every 15 minutes',
          channel,
        );
        expect(confirmation).toMatch(/Conference \w{6} created/);
        expect(confirmation).toContain('Nov 26 – Nov 27, 2 whole days in America/Chicago');
        // The event is on: the leaderboard comes right after the confirmation, pinned.
        const board = await harness.slack.waitFor(
          (call) => call.method === 'chat.postMessage' && call.args.channel === channel,
        );
        await harness.slack.waitFor((call) => call.method === 'pins.add');
        expect(blocksOf(board)).toContain('Day 1 of 2 · Thu Nov 26 (Central)');
        expect(blocksOf(board)).toContain('@nobody_here not in the top 500');
        expect(board.args.blocks).toEqual(
          expect.arrayContaining([expect.objectContaining({ type: 'data_table' })]),
        );
        const boardTs = (await harness.slack.waitFor((call) => call.method === 'pins.add')).args
          .timestamp;

        await tick(harness, '2026-11-26T14:15:00Z');
        const [update] = inChannel(harness, 'chat.update', channel);
        expect(update?.args.ts).toBe(boardTs);
        expect(blocksOf(update)).toContain('updated 08:15');

        // The workspace limits edits: a new leaderboard, pinned, the old one unpinned.
        harness.slack.updateErrors.set(String(boardTs), 'edit_window_closed');
        await tick(harness, '2026-11-26T14:30:00Z');
        const boards = inChannel(harness, 'chat.postMessage', channel);
        expect(boards).toHaveLength(2);
        const second = harness.slack.api('pins.add').at(-1)?.args.timestamp;
        expect(second).not.toBe(boardTs);
        expect(harness.slack.pins.get(channel)).toEqual(new Set([second]));

        // Midnight in Chicago (06:00 UTC): day 1's recap in the new leaderboard's thread.
        await tick(harness, '2026-11-27T06:00:00Z');
        const recap = inChannel(harness, 'chat.postMessage', channel).at(-1);
        expect(recap?.args.thread_ts).toBe(second);
        expect(blocksOf(recap)).toContain('Day 1 of 2 recap');
        expect(blocksOf(inChannel(harness, 'chat.update', channel).at(-1))).toContain(
          'Day 2 of 2 · Fri Nov 27',
        );
        await harness.close();

        // A restart mid-event: the new instance edits the same leaderboard within one tick.
        harness = await app(await database.store());
        await tick(harness, '2026-11-27T15:00:00Z');
        expect(inChannel(harness, 'chat.postMessage', channel)).toHaveLength(0);
        expect(inChannel(harness, 'chat.update', channel).map((call) => call.args.ts)).toEqual([
          second,
        ]);

        await tick(harness, '2026-11-28T06:00:00Z');
        const [dayTwo, final] = inChannel(harness, 'chat.postMessage', channel);
        expect(blocksOf(dayTwo)).toContain('Day 2 of 2 recap');
        expect(final?.args.thread_ts).toBe(second);
        expect(blocksOf(final)).toContain('Final recap');
        expect(blocksOf(final)).toContain('Export CSV');
        expect(blocksOf(inChannel(harness, 'chat.update', channel).at(-1))).toContain(
          'Final leaderboard',
        );
        const calls = harness.slack.calls.length;
        await tick(harness, '2026-11-28T07:00:00Z');
        expect(harness.slack.calls).toHaveLength(calls);
        const [ended] =
          (await harness.running.digests.conferences?.listForChannel(teamId, channel)) ?? [];
        expect(ended?.status).toBe('ended');
      } finally {
        await harness.close();
        await database.drop();
      }
    });

    it('lists, edits and stops a conference by command; stopped, it posts the final recap once', async () => {
      const database = adapter.open();
      const channel = 'C0CONF0002';
      setNow(new Date('2026-11-26T14:00:00Z'));
      const harness = await app(await database.store());
      try {
        await command(harness, 'conference #hcsm from Nov 26 to Nov 28', channel);
        expect(await command(harness, 'conference #hcsm from Nov 26 to Nov 28', channel)).toMatch(
          /already follows these days here/,
        );
        const list = await command(harness, 'conference list', channel);
        const id = /`(\w{6})`/.exec(list)?.[1] ?? '';
        expect(list).toContain('every 15 minutes');
        expect(await command(harness, `conference edit ${id} every 30 minutes`, channel)).toContain(
          'every 30 minutes',
        );
        await harness.send(eventCallback({ event: homeOpenedEvent() }));
        const home = await harness.slack.waitFor((call) => call.method === 'views.publish');
        expect(JSON.stringify(home.args.view)).toMatch(
          new RegExp(`Conferences\\* \\(1\\).*${id}.*next update Thu Nov 26 09:15 \\(Eastern\\)`),
        );
        expect(await command(harness, 'conference stop ABCDEF', channel)).toMatch(
          /no running conference with id “ABCDEF”/,
        );
        expect(await command(harness, `conference stop ${id}`, channel)).toMatch(/stopped/);
        const final = inChannel(harness, 'chat.postMessage', channel).at(-1);
        expect(blocksOf(final)).toContain('stopped before its last day');
        await tick(harness, '2026-11-26T16:00:00Z');
        expect(
          inChannel(harness, 'chat.postMessage', channel).filter((call) =>
            blocksOf(call).includes('Final recap'),
          ),
        ).toHaveLength(1);
      } finally {
        await harness.close();
        await database.drop();
      }
    });

    it('carries on unpinned when the channel has too many pins, saying so once in the thread', async () => {
      const database = adapter.open();
      const channel = 'C0CONF0004';
      setNow(new Date('2026-11-26T14:00:00Z'));
      const harness = await app(await database.store());
      try {
        harness.slack.pinError = 'too_many_pins';
        await command(harness, 'conference #hcsm from Nov 26 to Nov 27', channel);
        await harness.slack.waitFor((call) => call.method === 'pins.add');
        await tick(harness, '2026-11-26T14:15:00Z');
        await tick(harness, '2026-11-26T14:30:00Z');
        const [board, note, ...rest] = inChannel(harness, 'chat.postMessage', channel);
        expect(note?.args.thread_ts).toBe(
          board &&
            (await harness.slack.waitFor((call) => call.method === 'pins.add')).args.timestamp,
        );
        expect(String(note?.args.text)).toMatch(/could not pin this leaderboard/);
        expect(rest).toEqual([]);
        expect(inChannel(harness, 'chat.update', channel)).toHaveLength(2);
      } finally {
        await harness.close();
        await database.drop();
      }
    });

    it('still delivers the leaderboard where Slack refuses the table and chart blocks', async () => {
      const database = adapter.open();
      const channel = 'C0CONF0005';
      setNow(new Date('2026-11-26T14:00:00Z'));
      const harness = await app(await database.store());
      try {
        harness.slack.refuseNewBlocks = true;
        await command(harness, 'conference #hcsm from Nov 26 to Nov 27', channel);
        await tick(harness, '2026-11-26T14:15:00Z');
        const delivered = (method: string) =>
          inChannel(harness, method, channel).filter((call) => !blocksOf(call).includes('data_'));
        expect(delivered('chat.postMessage')).toHaveLength(1);
        expect(blocksOf(delivered('chat.postMessage')[0])).toContain('```');
        expect(delivered('chat.update')).toHaveLength(1);
      } finally {
        await harness.close();
        await database.drop();
      }
    });

    it('joins a public channel it posts in without being a member, to pin the leaderboard', async () => {
      const database = adapter.open();
      const channel = 'C0CONF0007';
      setNow(new Date('2026-11-26T14:00:00Z'));
      const harness = await app(await database.store());
      try {
        const joined = new Set<string>();
        harness.slack.override('conversations.join', (args) => {
          joined.add(String(args.channel));
          return { ok: true, channel: { id: args.channel } };
        });
        harness.slack.override('pins.add', (args) =>
          joined.has(String(args.channel)) ? { ok: true } : { ok: false, error: 'not_in_channel' },
        );
        await command(harness, 'conference #hcsm from Nov 26 to Nov 27', channel);
        expect(joined).toEqual(new Set([channel]));
        expect(harness.slack.api('pins.add')).toHaveLength(2);
        expect(inChannel(harness, 'chat.postMessage', channel)).toHaveLength(1);
      } finally {
        await harness.close();
        await database.drop();
      }
    });

    it('skips an update Slack rate limits, and replaces a leaderboard someone deleted', async () => {
      const database = adapter.open();
      const channel = 'C0CONF0006';
      setNow(new Date('2026-11-26T14:00:00Z'));
      const harness = await app(await database.store());
      try {
        await command(harness, 'conference #hcsm from Nov 26 to Nov 27', channel);
        const first = (await harness.slack.waitFor((call) => call.method === 'pins.add')).args
          .timestamp;
        harness.slack.rateLimit('chat.update', 30, 1);
        await tick(harness, '2026-11-26T14:15:00Z');
        // Refused, not retried within the tick: the next refresh edits it.
        expect(inChannel(harness, 'chat.update', channel)).toHaveLength(1);
        await tick(harness, '2026-11-26T14:20:00Z');
        expect(inChannel(harness, 'chat.update', channel)).toHaveLength(1);
        await tick(harness, '2026-11-26T14:30:00Z');
        expect(inChannel(harness, 'chat.update', channel)).toHaveLength(2);

        harness.slack.updateErrors.set(String(first), 'message_not_found');
        await tick(harness, '2026-11-26T14:45:00Z');
        const boards = inChannel(harness, 'chat.postMessage', channel);
        expect(boards).toHaveLength(2);
        expect(boards[1]?.args.thread_ts).toBeUndefined();
        expect(harness.slack.pins.get(channel)?.size).toBe(1);
      } finally {
        await harness.close();
        await database.drop();
      }
    });

    it('reads the days in the creator’s zone even when Slack says it too late for the ack', async () => {
      const database = adapter.open();
      const channel = 'C0CONF0008';
      setNow(new Date('2026-11-26T14:00:00Z'));
      const harness = await app(await database.store());
      try {
        // Slower than the ack's bounded wait (500 ms here), quick enough for a second chance.
        harness.slack.usersInfoDelayMs = 700;
        expect(await command(harness, 'conference #hcsm from Nov 26 to Nov 27', channel)).toContain(
          '2 whole days in America/New_York',
        );
      } finally {
        await harness.close();
        await database.drop();
      }
    });

    it('refuses a database the service does not know, creating nothing', async () => {
      const database = adapter.open();
      const channel = 'C0CONF0003';
      const harness = await app(await database.store());
      try {
        expect(
          await command(harness, 'conference #nosuchtag from Nov 26 to Nov 28', channel),
        ).toMatch(/nosuchtag/);
        expect(await harness.running.digests.conferences?.listForChannel(teamId, channel)).toEqual(
          [],
        );
      } finally {
        await harness.close();
        await database.drop();
      }
    });
  });
}
