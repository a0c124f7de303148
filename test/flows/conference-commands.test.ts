import { expect, it } from 'vitest';
import { ParseError, TimeoutError } from '../../src/errors.ts';
import { answerConferenceCommand } from '../../src/flows/conference-commands.ts';
import { ConferenceManager } from '../../src/flows/conference-manager.ts';
import { silentLogger } from '../../src/logger.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { parseConferenceCommand } from '../../src/parsing/conference.ts';
import type { Database } from '../../src/store/database.ts';
import {
  ascoInput,
  conferenceRunner,
  FakeConferencePoster,
} from '../digests/conferences/helpers.ts';
import { describeEachStore, type FakeAnalytics, type FakeClock } from '../digests/helpers.ts';

const access = { assertCanPost: async () => undefined, isAdmin: async () => false };
const caller = { teamId: 'T1', userId: 'U1' };

/** Runs one conference command typed in `C0ASCO` and returns what it answered. */
function commands(store: Database, analytics: FakeAnalytics, clock: FakeClock) {
  const poster = new FakeConferencePoster(clock);
  const runner = conferenceRunner(store.conferences, analytics, poster, clock);
  const manager = new ConferenceManager({
    conferences: store.conferences,
    runner,
    analytics,
    now: () => clock.now(),
  });
  return async (text: string, channelId = 'C0ASCO'): Promise<string> => {
    const parsed = parseConferenceCommand(text, { now: clock.now(), zone: 'America/Chicago' });
    if (parsed instanceof ParseError) throw parsed;
    const answers: SlackMessage[] = [];
    await answerConferenceCommand(
      {
        manager,
        logger: silentLogger,
        now: () => clock.now(),
        caller,
        channelId,
        access,
        commandName: '/influencers',
      },
      parsed,
      async (message) => answers.push(message),
    );
    return answers.map((answer) => answer.text).join('\n');
  };
}

describeEachStore('conference commands', '2026-05-29T14:00:00Z', (world) => {
  it('conference tick counts the leaderboards it brought up to date, not every conference of the channel', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const run = commands(db.store, analytics, clock);
    // Two under way, one that starts next week, one ended, one in another channel.
    await store.create(ascoInput({ nextRunAt: clock.now() }), clock.now());
    await store.create(ascoInput({ databases: ['#ESMO26'], nextRunAt: clock.now() }), clock.now());
    await store.create(
      ascoInput({ databases: ['#ADA26'], firstDay: '2026-06-05', lastDay: '2026-06-07' }),
      clock.now(),
    );
    await store.create(ascoInput({ channelId: 'C0OTHER', nextRunAt: clock.now() }), clock.now());
    expect(await run('conference tick')).toContain('2 leaderboards brought up to date');
    clock.advance(60_000);
    expect(await run('conference tick')).toContain('2 leaderboards brought up to date');
  });

  it('says in the confirmation that a hashtag could not be checked when the service timed out', async () => {
    const { db, clock, analytics } = world();
    analytics.answer = async () => {
      throw new TimeoutError('deadline', 5000);
    };
    const text = await run(
      db.store,
      analytics,
      clock,
    )('conference #ASCO26 from Jun 5 to Jun 7 in America/Chicago');
    expect(text).toContain('created');
    expect(text).toContain('#ASCO26 could not be checked');
  });

  it('names the zone when a conference differs from one already there only by it', async () => {
    const { db, clock, analytics } = world();
    const type = run(db.store, analytics, clock);
    await type('conference #ASCO26 from Jun 5 to Jun 7 in America/Chicago');
    const text = await type('conference #ASCO26 from Jun 5 to Jun 7 in Europe/Paris');
    expect(text).toContain('already follows these days here');
    expect(text).toContain('in America/Chicago, not Europe/Paris');
  });

  it('shows the year in the confirmation and the list when it is not this year', async () => {
    const { db, clock, analytics } = world();
    const type = run(db.store, analytics, clock);
    const created = await type(
      'conference #ASCO27 from Jun 4 2027 to Jun 8 2027 in America/Chicago',
    );
    expect(created).toContain('Jun 4 – Jun 8, 2027');
    expect(await type('conference list')).toContain('Jun 4 – Jun 8, 2027');
    const thisYear = await type('conference #ESMO26 from Jun 5 to Jun 7 in America/Chicago');
    expect(thisYear).toContain('Jun 5 – Jun 7,');
    expect(thisYear).not.toContain('2026');
  });

  it('watch none clears the watchlist of a conference', async () => {
    const { db, clock, analytics } = world();
    const type = run(db.store, analytics, clock);
    await type('conference #ASCO26 from Jun 5 to Jun 7 in America/Chicago watch @DrA @DrB');
    const [conference] = await db.store.conferences.listByChannel('T1', 'C0ASCO');
    expect(conference?.watch).toEqual(['DrA', 'DrB']);
    const edited = await type(`conference edit ${conference?.id} watch none`);
    expect(edited).toContain('updated');
    expect(edited).not.toContain('watching');
    expect((await db.store.conferences.get(conference?.id ?? ''))?.watch).toEqual([]);
  });
});

const run = commands;
