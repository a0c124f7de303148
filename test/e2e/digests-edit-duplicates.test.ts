/**
 * An edit that would make a digest identical to another of its channel, through the running app:
 * by command it is answered as creating that digest would be, in the Edit form it stays open with
 * the words under the input that made it so; either way the digest is left as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Digest } from '../../src/model/digest.ts';
import { digestActionIds } from '../../src/render/ids.ts';
import type { Database } from '../../src/store/database.ts';
import { type DigestRuns, startDigestRuns } from '../helpers/digest-runs.ts';
import { pressEdit, submittedEdit } from '../helpers/edit-modal.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import type { Harness } from '../helpers/harness.ts';
import { slashCommand, teamId } from '../helpers/payloads.ts';

let runs: DigestRuns | undefined;
let harness: Harness;
let store: Database;
let channelSequence = 0;
const freshChannel = () => `C0EDUP${String(++channelSequence).padStart(4, '0')}`;

beforeAll(async () => {
  runs = await startDigestRuns();
  ({ harness, store } = runs);
});

afterAll(async () => {
  await runs?.close();
});

async function answerTo(text: string, channelId: string): Promise<SlackCall> {
  const payload = slashCommand({ text, channelId });
  expect((await harness.send(payload)).status).toBe(200);
  return harness.slack.waitForResponse(payload.responseUrl);
}

/** Two digests created by command in a fresh channel: the second differs by its top N. */
async function twoDigests(): Promise<{ readonly existing: Digest; readonly edited: Digest }> {
  const channelId = freshChannel();
  for (const text of [
    'digest #hcsm every monday at 9am top 5',
    'digest #hcsm every monday at 9am top 10',
  ]) {
    expect(String((await answerTo(text, channelId)).args.text)).toMatch(/ created: /);
  }
  const digests = await store.digests.listByChannel(teamId, channelId);
  const existing = digests.find((digest) => digest.top === 5);
  const edited = digests.find((digest) => digest.top === 10);
  if (existing === undefined || edited === undefined) throw new Error('not created');
  return { existing, edited };
}

describe('an edit that would repeat another digest of the channel', () => {
  it('is answered by command with the digest it repeats, and changes nothing', async () => {
    const { existing, edited } = await twoDigests();
    const answer = await answerTo(`digest edit ${edited.id} top 5`, edited.channelId);
    expect(String(answer.args.text)).toBe(
      `An identical digest, ${existing.id}, already posts in <#${existing.channelId}>: top 5 of #hcsm, Mondays at 09:00 America/New_York. Digest ${edited.id} was left as it was.`,
    );
    const blocks = JSON.stringify(answer.args.blocks);
    expect(blocks).toContain(`so digest ${edited.id} was left as it was`);
    expect(blocks).toContain(digestActionIds.pause);
    expect(await store.digests.get(edited.id)).toEqual(edited);
  });

  it('keeps the Edit form open with the words under the top N, and changes nothing', async () => {
    const { existing, edited } = await twoDigests();
    const before = harness.slack.api('views.open').length;
    expect((await harness.send(pressEdit(edited))).status).toBe(200);
    await harness.slack.waitFor(() => harness.slack.api('views.open').length > before);
    const view = harness.slack.api('views.open').at(-1)?.args.view as Record<string, unknown>;

    const ack = await harness.send(submittedEdit(view, { top: '5', shown: 'table' }));
    expect(ack.json).toEqual({
      response_action: 'errors',
      errors: {
        digest_edit_top: `An identical digest, ${existing.id}, already posts in the same channel: top 5 of #hcsm, Mondays at 09:00 America/New_York. Digest ${edited.id} was left as it was. Change this, or remove ${existing.id}.`,
      },
    });
    expect(await store.digests.get(edited.id)).toEqual(edited);

    const unchanged = await harness.send(submittedEdit(view, { shown: 'table' }));
    expect(unchanged.text).toBe('');
    expect(await store.digests.get(edited.id)).toMatchObject({ top: 10, presentation: 'table' });
  });
});
