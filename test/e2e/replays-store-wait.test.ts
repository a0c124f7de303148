/**
 * The ack of a signed request does not wait for the store that says whether another instance has
 * handled it; the request's work does, and does nothing when the store says one has. A store
 * whose answer the test holds shows both; a store that never answers shows the bounded wait.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import type { Database } from '../../src/store/database.ts';
import { openDatabase } from '../../src/store/open.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { slashCommand, teamId } from '../helpers/payloads.ts';

let sandbox: Sandbox;
/** The app whose store answers each sighting when the test says. */
let held: Harness;
let heldStore: Database;
/** The store's answers still owed, oldest first. */
const owed: ((first: boolean) => void)[] = [];
/** The app whose store never answers a sighting. */
let silent: Harness;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  heldStore = await openDatabase({ sqlitePath: ':memory:' });
  heldStore.sightings.firstSighting = () => new Promise((resolve) => owed.push(resolve));
  held = await startHarness({
    sharedSandbox: sandbox,
    // Longer than any test: only the test's answer lets the work go on.
    overrides: { digests: { database: heldStore }, sightingWaitMs: 60_000 },
  });
  const silentStore = await openDatabase({ sqlitePath: ':memory:' });
  silentStore.sightings.firstSighting = () => new Promise(() => {});
  silent = await startHarness({
    sharedSandbox: sandbox,
    overrides: { digests: { database: silentStore }, sightingWaitMs: 50 },
  });
});

afterAll(async () => {
  for (const answer of owed.splice(0)) answer(true);
  await Promise.all([held, silent].map((harness) => harness?.close()));
  await sandbox?.close();
});

/** The store's answer to the one sighting it has been asked for. */
async function storeAnswers(first: boolean): Promise<void> {
  await vi.waitFor(() => expect(owed).toHaveLength(1));
  owed.shift()?.(first);
}

describe('the ack of a signed request', () => {
  it('leaves before the store answers, and the work waits for the store', async () => {
    const command = slashCommand({ text: '#hcsm last week', userId: 'U0WAIT0001' });
    const ack = await held.send(command);
    expect(ack.status).toBe(200);
    expect(ack.text).toContain('Looking up top influencers');
    expect(held.slack.responses(command.responseUrl)).toEqual([]);
    await storeAnswers(true);
    await held.slack.waitForResponse(command.responseUrl);
  });

  it('is all a lookup does when the store says another instance handled it', async () => {
    const command = slashCommand({ text: '#hcsm last week', userId: 'U0WAIT0002' });
    expect((await held.send(command)).status).toBe(200);
    await storeAnswers(false);
    await held.settled();
    expect(held.slack.responses(command.responseUrl)).toEqual([]);
    expect(held.logs.join('\n')).toContain('another instance had handled (a replay)');
  });

  it('is all a digest command does when the store says another instance handled it', async () => {
    const creator = 'U0WAIT0003';
    const command = slashCommand({
      text: 'digest #hcsm every monday at 9am in UTC to me',
      userId: creator,
    });
    expect((await held.send(command)).status).toBe(200);
    await storeAnswers(false);
    await held.settled();
    expect(held.slack.responses(command.responseUrl)).toEqual([]);
    expect(await heldStore.digests.listByCreator(teamId, creator)).toEqual([]);
  });

  it('is followed by the work when the store does not answer within its wait', async () => {
    const command = slashCommand({ text: '#hcsm last week', userId: 'U0WAIT0004' });
    expect((await silent.send(command)).status).toBe(200);
    await silent.slack.waitForResponse(command.responseUrl);
    expect(silent.logs.join('\n')).toContain('the store was too slow to check a request');
  });
});
