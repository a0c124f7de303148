import { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import {
  canvasProblemOf,
  channelCanvasOf,
  SlackCanvasWriter,
} from '../../../src/slack/web-api/canvas.ts';
import { singleAttemptClientOptions } from '../../../src/slack/web-api/client.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';

const channel = 'C0HCSM0001';
const document = { title: 'Top 10 of #hcsm', markdown: '**Top 10 of \\#hcsm**\n\n| # |\n| --- |' };

function writerFor(slack: FakeSlack): SlackCanvasWriter {
  const client = new WebClient('xoxb-canvas', singleAttemptClientOptions({ fetch: slack.fetch }));
  return new SlackCanvasWriter({ client });
}

describe('SlackCanvasWriter', () => {
  it("creates the channel's canvas when it has none, with the title and markdown", async () => {
    const slack = new FakeSlack();
    const write = await writerFor(slack).write(channel, undefined, document);
    expect(write).toEqual({ kind: 'written', canvas: { id: 'F0CANVAS0001', kind: 'channel' } });
    const [call] = slack.api('conversations.canvases.create');
    expect(call?.args).toMatchObject({
      channel_id: channel,
      title: document.title,
      document_content: { type: 'markdown', markdown: document.markdown },
    });
    expect(slack.canvases.get('F0CANVAS0001')?.markdown).toBe(document.markdown);
  });

  it("makes a canvas of its own tabbed in the channel when the channel's is someone else's", async () => {
    const slack = new FakeSlack();
    const theirs = slack.personCanvas(channel);
    const write = await writerFor(slack).write(channel, undefined, document);
    expect(write).toEqual({ kind: 'written', canvas: { id: 'F0CANVAS0002', kind: 'standalone' } });
    expect(slack.api('canvases.create')[0]?.args).toMatchObject({ channel_id: channel });
    expect(slack.api('canvases.edit')).toHaveLength(0);
    expect(theirs.markdown).toBe('Our channel notes');
  });

  it('finds the canvas it made when the answer to its creation is lost', async () => {
    const slack = new FakeSlack();
    slack.loseAnswer('conversations.canvases.create');
    expect(await writerFor(slack).write(channel, undefined, document)).toEqual({
      kind: 'written',
      canvas: { id: 'F0CANVAS0001', kind: 'channel' },
    });
    expect(slack.api('conversations.info')).toHaveLength(2);
    expect(slack.canvases.get('F0CANVAS0001')?.markdown).toBe(document.markdown);
  });

  it('says its creation is unconfirmed when Slack does not say, then edits what it made', async () => {
    const slack = new FakeSlack();
    const writer = writerFor(slack);
    slack.loseAnswer('conversations.canvases.create');
    slack.loseAnswer('conversations.info', 1, 1);
    expect(await writer.write(channel, undefined, document)).toEqual({
      kind: 'failed',
      problem: 'creation_unconfirmed',
    });
    const next = { ...document, markdown: 'next run' };
    expect(await writer.write(channel, undefined, next, { unconfirmed: true })).toEqual({
      kind: 'written',
      canvas: { id: 'F0CANVAS0001', kind: 'channel' },
    });
    expect(slack.canvases.size).toBe(1);
    expect(slack.canvases.get('F0CANVAS0001')?.markdown).toBe('next run');
  });

  it("never calls unconfirmed a creation beside someone else's canvas", async () => {
    const slack = new FakeSlack();
    const theirs = slack.personCanvas(channel);
    slack.loseAnswer('canvases.create');
    const writer = writerFor(slack);
    expect(await writer.write(channel, undefined, document)).toEqual({
      kind: 'failed',
      problem: 'slack_failed',
    });
    // Not `creation_unconfirmed`: the next write must not take the channel's canvas for its own.
    expect(slack.api('conversations.canvases.create')).toHaveLength(0);
    expect(slack.api('canvases.edit')).toHaveLength(0);
    expect(theirs.markdown).toBe('Our channel notes');
  });

  it("says the channel's canvas is taken on a free plan, and edits nothing", async () => {
    const slack = new FakeSlack();
    slack.freeTeam = true;
    slack.personCanvas(channel);
    const write = await writerFor(slack).write(channel, undefined, document);
    expect(write).toEqual({ kind: 'failed', problem: 'channel_canvas_taken' });
    expect(slack.api('canvases.edit')).toHaveLength(0);
  });

  it('says canvases are not available on a plan without channel canvases', async () => {
    const slack = new FakeSlack();
    slack.noChannelCanvases = true;
    expect(await writerFor(slack).write(channel, undefined, document)).toEqual({
      kind: 'failed',
      problem: 'canvases_unavailable',
    });
  });

  it('rewrites its canvas with one edit whose single replace has no section', async () => {
    const slack = new FakeSlack();
    const writer = writerFor(slack);
    const first = await writer.write(channel, undefined, document);
    if (first.kind !== 'written') throw new Error('not written');
    const next = { ...document, markdown: 'the whole new document' };
    expect(await writer.write(channel, first.canvas, next)).toEqual(first);
    const edits = slack.api('canvases.edit');
    expect(edits).toHaveLength(1);
    expect(edits[0]?.args.changes).toEqual([
      { operation: 'replace', document_content: { type: 'markdown', markdown: next.markdown } },
    ]);
    expect(slack.canvases.get(first.canvas.id)?.markdown).toBe('the whole new document');
    expect(slack.api('conversations.canvases.create')).toHaveLength(1);
  });

  it('creates its canvas anew when it was deleted', async () => {
    const slack = new FakeSlack();
    const write = await writerFor(slack).write(
      channel,
      { id: 'F0GONE0001', kind: 'channel' },
      document,
    );
    expect(write).toEqual({ kind: 'written', canvas: { id: 'F0CANVAS0001', kind: 'channel' } });
  });

  it.each([
    ['canvas_editing_failed', 'editing_failed'],
    ['restricted_action', 'not_allowed'],
    ['missing_scope', 'missing_scope'],
    ['internal_error', 'slack_failed'],
    ['free_teams_cannot_edit_standalone_canvases', 'edits_unavailable'],
    ['canvas_editing_locked', 'canvas_locked'],
    ['canvas_too_large', 'canvas_too_large'],
  ])('classifies %s as %s', async (error, problem) => {
    const slack = new FakeSlack();
    slack.override('canvases.edit', () => ({ ok: false, error }));
    const write = await writerFor(slack).write(
      channel,
      { id: 'F0CANVAS0009', kind: 'standalone' },
      document,
    );
    expect(write).toEqual({ kind: 'failed', problem });
  });

  it.each([
    ['channel_canvas_creation_failed', 'creation_failed'],
    ['canvas_tab_creation_failed', 'creation_failed'],
    ['free_team_canvas_tab_already_exists', 'channel_canvas_taken'],
  ])('classifies %s from a creation as %s', async (error, problem) => {
    const slack = new FakeSlack();
    slack.override('conversations.canvases.create', () => ({ ok: false, error }));
    expect(await writerFor(slack).write(channel, undefined, document)).toEqual({
      kind: 'failed',
      problem,
    });
  });

  it('tabs a canvas of its own on a free plan where the channel has none of someone else’s', async () => {
    const slack = new FakeSlack();
    slack.freeTeam = true;
    slack.override('conversations.canvases.create', () => ({
      ok: false,
      error: 'channel_canvas_already_exists',
    }));
    const write = await writerFor(slack).write(channel, undefined, document);
    expect(write).toEqual({ kind: 'written', canvas: { id: 'F0CANVAS0001', kind: 'standalone' } });
  });

  it('makes one canvas under Tier 2: a creation Slack rate limits makes none, the next one makes it', async () => {
    const slack = new FakeSlack();
    let now = 1_800_000_000_000;
    slack.clock = () => now;
    slack.enforceTiers = true;
    slack.spendTier('conversations.canvases.create', 20);
    const writer = writerFor(slack);
    expect(await writer.write(channel, undefined, document)).toEqual({
      kind: 'failed',
      problem: 'slack_failed',
    });
    expect(slack.canvases.size).toBe(0);
    now += 60_000;
    const write = await writer.write(channel, undefined, document);
    expect(write).toEqual({ kind: 'written', canvas: { id: 'F0CANVAS0001', kind: 'channel' } });
    expect(slack.canvases.size).toBe(1);
  });

  it('reads a failure that is not a Slack answer as Slack failing', () => {
    expect(canvasProblemOf(new Error('socket hang up'))).toBe('slack_failed');
  });
});

describe('channelCanvasOf', () => {
  it("reads the channel's canvas from properties.canvas, else from a canvas tab", () => {
    const canvas = { file_id: 'F_MAIN', is_empty: true, quip_thread_id: 'Q1' };
    const tabs = [
      { id: 'Ct0AAA', type: 'bookmarks', data: {} },
      { id: 'Ct0BBB', type: 'canvas', data: { file_id: 'F_TAB', shared_ts: '1.2' }, label: '' },
    ];
    expect(channelCanvasOf({ id: 'C1', properties: { canvas, tabs } })).toBe('F_MAIN');
    // A free workspace lists its channel canvas only among the tabs.
    expect(channelCanvasOf({ id: 'C1', properties: { tabs } })).toBe('F_TAB');
    expect(channelCanvasOf({ id: 'C1', properties: { tabs: [tabs[0]] } })).toBeUndefined();
    expect(channelCanvasOf({ id: 'C1' })).toBeUndefined();
    expect(channelCanvasOf(undefined)).toBeUndefined();
  });
});
