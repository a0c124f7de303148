import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { App, LogLevel } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { close } from '../../../src/http/server.ts';
import { createLogger } from '../../../src/logger.ts';
import { ReplayedRequestError, SightedReceiver } from '../../../src/slack/http/sighted-receiver.ts';
import {
  botId,
  botUserId,
  type EncodedBody,
  eventCallback,
  mentionEvent,
  slashCommand,
  viewSubmission,
} from '../../helpers/payloads.ts';

/** The store's answer for the next request, given when the test says. */
let answer: (first: boolean) => void;
let sighting: Promise<boolean> | undefined;
/** What the listeners did, in order. */
let did: string[];
/** What reached the app's error handler. */
let errors: unknown[];
let tracked: Promise<unknown>[];
let logged: string[];
let server: Server;
let url: string;

function nextSighting(): void {
  sighting = new Promise((resolve) => {
    answer = resolve;
  });
}

beforeEach(async () => {
  did = [];
  errors = [];
  tracked = [];
  logged = [];
  nextSighting();
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logged.push(String(chunk));
      done();
    },
  });
  const receiver = new SightedReceiver({
    signingSecret: 'unused: the front door checks signatures',
    signatureVerification: false,
    logLevel: LogLevel.ERROR,
    track: (work) => tracked.push(work),
    log: createLogger({ level: 'info', destination }),
  });
  const app = new App({
    receiver,
    authorize: async () => ({ botToken: 'xoxb-receiver-test', botId, botUserId }),
    logLevel: LogLevel.ERROR,
  });
  app.error(async (error) => {
    errors.push(error.original ?? error);
  });
  app.command('/influencers', async ({ ack }) => {
    await ack({ text: 'looking' });
    did.push('command');
  });
  app.event('app_mention', async () => {
    did.push('event');
  });
  app.view('lookup', async ({ ack }) => {
    did.push('view');
    await ack();
  });
  // As the front door hands on a request that passed: its sighting under way.
  server = createServer((req, res) => {
    Object.assign(req, { firstSighting: sighting });
    receiver.requestListener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
});

afterEach(async () => {
  answer(true);
  server.closeAllConnections();
  await close(server);
});

async function send(payload: EncodedBody): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': payload.contentType },
    body: payload.body,
  });
  return { status: response.status, text: await response.text() };
}

const command = () => slashCommand({ text: '#hcsm last week' });
const submission = () => viewSubmission({ callbackId: 'lookup', values: {} });

describe('SightedReceiver', () => {
  it('acks a command at once and runs what follows its ack once the store says it is new', async () => {
    expect(await send(command())).toEqual({ status: 200, text: '{"text":"looking"}' });
    expect(did).toEqual([]);
    answer(true);
    await vi.waitFor(() => expect(did).toEqual(['command']));
    expect(tracked).toHaveLength(1);
    expect(tracked[0]).toBe(sighting);
  });

  it('runs nothing after the ack of a command another instance handled', async () => {
    expect(await send(command())).toEqual({ status: 200, text: '{"text":"looking"}' });
    answer(false);
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toBeInstanceOf(ReplayedRequestError);
    expect(did).toEqual([]);
    expect(logged.join('')).toContain('(a replay)');
  });

  it('acks an event and starts its listeners once the store says it is new', async () => {
    expect((await send(eventCallback({ event: mentionEvent('#hcsm') }))).status).toBe(200);
    expect(did).toEqual([]);
    answer(true);
    await vi.waitFor(() => expect(did).toEqual(['event']));
  });

  it('never starts the listeners of an event another instance handled', async () => {
    expect((await send(eventCallback({ event: mentionEvent('#hcsm') }))).status).toBe(200);
    answer(false);
    await vi.waitFor(() => expect(logged.join('')).toContain('(a replay)'));
    await sighting;
    expect(did).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('hands a modal submission to its listener only once the store says it is new', async () => {
    const sent = send(submission());
    await vi.waitFor(() => expect(tracked).toHaveLength(1));
    expect(did).toEqual([]);
    answer(true);
    expect(await sent).toEqual({ status: 200, text: '' });
    expect(did).toEqual(['view']);
  });

  it('acks a modal submission another instance handled, and hands it to no listener', async () => {
    const sent = send(submission());
    answer(false);
    expect(await sent).toEqual({ status: 200, text: '' });
    expect(did).toEqual([]);
    expect(logged.join('')).toContain('(a replay)');
  });

  it('hands on at once a request that came without a sighting', async () => {
    sighting = undefined;
    expect(await send(command())).toEqual({ status: 200, text: '{"text":"looking"}' });
    await vi.waitFor(() => expect(did).toEqual(['command']));
    expect(tracked).toEqual([]);
  });
});
