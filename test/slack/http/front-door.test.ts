import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appServer, close, listen, type ServerTimeouts } from '../../../src/http/server.ts';
import { createLogger } from '../../../src/logger.ts';
import { frontDoor, maxBodyBytes } from '../../../src/slack/http/front-door.ts';
import type { SightedRequest } from '../../../src/slack/http/sighted-receiver.ts';
import { signSlackRequest } from '../../helpers/signing.ts';

const secret = 'front-door-signing-secret';
const form = 'application/x-www-form-urlencoded';
const command = 'command=%2Finfluencers&text=%23hcsm+last+week&team_id=T0TEAM001';

let server: Server;
let url: string;
/** What reached the receiver behind the front door. */
let passed: { path: string; rawBody: string | undefined }[];
/** The sightings that came with what passed. */
let sightings: Promise<boolean>[];
let seen: Set<string>;
/** What the store says of every new signature: no other instance has seen it. */
const sighting = Promise.resolve(true);
/** What the front door logged, one parsed record per line. */
let logged: { msg: string; [field: string]: unknown }[];
/** The refusal summary window, short here. */
const summaryMs = 1_000;
/** The summary windows open now, each ended when the test says its time has passed. */
let windows: (() => void)[];

/** What `summaryMs * 1.5` of waiting would do: every window open now ends (and the next opens). */
function windowTimePasses(): void {
  for (const end of windows.splice(0)) end();
}

async function startServer(timeouts: ServerTimeouts): Promise<void> {
  passed = [];
  sightings = [];
  seen = new Set();
  logged = [];
  windows = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logged.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  server = appServer(
    frontDoor({
      signingSecret: secret,
      next: (req, res) => {
        const { rawBody, firstSighting } = req as SightedRequest;
        passed.push({ path: req.url ?? '', rawBody: rawBody?.toString('utf8') });
        if (firstSighting !== undefined) sightings.push(firstSighting);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      },
      sight: (signature) => {
        if (seen.has(signature)) return undefined;
        seen.add(signature);
        return sighting;
      },
      logger: createLogger({ level: 'info', destination }),
      refusalSummaryMs: summaryMs,
      refusalTimer: (end) => windows.push(end),
    }),
    timeouts,
  );
  url = `http://127.0.0.1:${await listen(server, 0)}`;
}

async function stopServer(): Promise<void> {
  server.closeAllConnections();
  await close(server);
}

beforeEach(() => startServer({ headersTimeoutMs: 500, requestTimeoutMs: 1_000 }));

afterEach(stopServer);

async function post(
  body: string,
  headers: Record<string, string>,
  contentType = form,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...headers },
    body,
  });
  return { status: response.status, text: await response.text() };
}

const nowS = () => Math.floor(Date.now() / 1000);

/** Opens a connection and sends the head of a form POST to /slack/events, `declared` bytes long. */
function sendHead(headers: Record<string, string>, declared: number): Socket {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  const head = Object.entries({ ...headers, 'content-type': form, 'content-length': declared })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST /slack/events HTTP/1.1\r\nhost: localhost\r\n${head}\r\n`);
  return socket;
}

/**
 * Sends the head of a request and `sent` bytes of a body that would be `declared` long, then
 * waits for an answer without sending the rest.
 */
function partialRequest(
  headers: Record<string, string>,
  declared: number,
  sent: number,
): Promise<{ status: number; ms: number; head: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = sendHead(headers, declared);
    socket.write('x'.repeat(sent));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      if (status !== undefined && answer.includes('\r\n\r\n')) {
        socket.destroy();
        resolve({ status: Number(status), ms: performance.now() - started, head: answer });
      }
    });
    socket.on('error', reject);
  });
}

describe('frontDoor', () => {
  it('passes a signed command to the receiver with its body already read', async () => {
    const response = await post(command, signSlackRequest(secret, command));
    expect(response).toEqual({ status: 200, text: '{"ok":true}' });
    expect(passed).toEqual([{ path: '/slack/events', rawBody: command }]);
  });

  it('refuses a request without signature headers before reading its body', async () => {
    const answer = await partialRequest({}, 3_900_000, 1_024);
    expect(answer.status).toBe(401);
    expect(answer.head.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(passed).toEqual([]);
  });

  it.each([
    ['an unsigned request', () => ({})],
    ['a stale one', () => signSlackRequest(secret, 'x', nowS() - 600)],
    ['a signed one declared over 512 KB', () => signSlackRequest(secret, 'x')],
  ])(
    'closes the connection of %s once refused, reading no more of its body',
    async (_name, headers) => {
      // What the server had read of the connection when the refusal went out, and in all.
      const readAtRefusal = new Promise<number>((resolve) => {
        server.once('request', (req: IncomingMessage, res: ServerResponse) => {
          res.once('finish', () => resolve(req.socket.bytesRead));
        });
      });
      const readInAll = new Promise<number>((resolve) => {
        server.once('connection', (socket: Socket) => {
          socket.once('close', () => resolve(socket.bytesRead));
        });
      });
      const socket = sendHead(headers(), 3_900_000);
      // Much more than one read: left to itself the server would go on reading it after refusing.
      socket.write(Buffer.alloc(2 * 1024 * 1024, 'a'));
      socket.resume();
      // Closed with body unread, the connection ends in a reset: the refusal may not be read here.
      socket.on('error', () => {});
      const closedByServer = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const [atRefusal, inAll] = await Promise.all([readAtRefusal, readInAll, closedByServer]);
      expect(inAll).toBe(atRefusal);
      expect(inAll).toBeLessThan(512 * 1024);
    },
  );

  it('logs the first refusal at once and those that follow as one line per window', async () => {
    const refusals = () => logged.filter((line) => line.msg.startsWith('refused'));
    await post(command, {});
    await post(command, {});
    await post(command, {});
    await post(command, signSlackRequest(secret, command, nowS() - 600));
    expect(refusals()).toEqual([
      expect.objectContaining({
        msg: 'refused a request to /slack/events',
        status: 401,
        reason: 'signature headers missing',
      }),
    ]);
    windowTimePasses();
    expect(refusals().slice(1)).toEqual([
      expect.objectContaining({
        msg: 'refused more requests to /slack/events',
        refused: 3,
        reasons: {
          '401 signature headers missing': 2,
          '401 timestamp outside the replay window': 1,
        },
      }),
    ]);
    // A window that counted nothing ends, and the next refusal is logged at once again.
    windowTimePasses();
    expect(refusals()).toHaveLength(2);
    await post(command, signSlackRequest('another-secret', command));
    expect(refusals()[2]).toEqual(
      expect.objectContaining({ status: 401, reason: 'signature does not match' }),
    );
  });

  it('refuses a declared body over 512 KB before reading it, even when signed', async () => {
    const answer = await partialRequest(signSlackRequest(secret, 'x'), maxBodyBytes + 1, 1_024);
    expect(answer.status).toBe(413);
  });

  it('stops reading a body without a declared length at 512 KB', async () => {
    const body = `text=${'a'.repeat(maxBodyBytes)}`;
    const response = await fetch(`${url}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': form, ...signSlackRequest(secret, body) },
      body: new Blob([body]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(passed).toEqual([]);
  });

  it.each([
    ['more than 5 minutes old', () => nowS() - 302],
    ['more than 5 minutes ahead', () => nowS() + 302],
    ['ten years ahead', () => nowS() + 10 * 365 * 86_400],
    ['1e10', () => 1e10],
  ])('refuses a timestamp %s', async (_name, timestamp) => {
    const response = await post(command, signSlackRequest(secret, command, timestamp()));
    expect(response).toEqual({ status: 401, text: '' });
    expect(passed).toEqual([]);
  });

  it('refuses a timestamp that is not a number of seconds', async () => {
    const headers = { ...signSlackRequest(secret, command), 'x-slack-request-timestamp': '1e10' };
    expect((await post(command, headers)).status).toBe(401);
  });

  it('refuses a wrong signature', async () => {
    const response = await post(command, signSlackRequest('another-secret', command));
    expect(response.status).toBe(401);
    expect(passed).toEqual([]);
  });

  it.each([
    ['a form payload of null', 'payload=null', form],
    ['a form payload that is not JSON', 'payload=%7Bnope', form],
    ['a form payload that is a list', 'payload=%5B1%5D', form],
    ['a JSON body of null', 'null', 'application/json'],
    ['a JSON body that is a string', '"event"', 'application/json'],
    ['a body that is not JSON', '{"type":', 'application/json'],
  ])('answers 400 to %s', async (_name, body, contentType) => {
    const response = await post(body, signSlackRequest(secret, body), contentType);
    expect(response).toEqual({ status: 400, text: '' });
    expect(passed).toEqual([]);
  });

  it('passes a new signature on with its sighting, which the receiver awaits', async () => {
    await post(command, signSlackRequest(secret, command));
    expect(sightings).toHaveLength(1);
    expect(sightings[0]).toBe(sighting);
  });

  it('answers a replayed request with an empty 200 and does not pass it on again', async () => {
    const headers = signSlackRequest(secret, command);
    await post(command, headers);
    expect(await post(command, headers)).toEqual({ status: 200, text: '' });
    expect(passed).toHaveLength(1);
  });

  it('lets other routes through to the receiver unchecked', async () => {
    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(200);
    expect(passed).toEqual([{ path: '/healthz', rawBody: undefined }]);
  });
});

describe('frontDoor with short timeouts', () => {
  // Checked every 50 ms, as Node checks the app's every second.
  beforeEach(async () => {
    await stopServer();
    await startServer({ headersTimeoutMs: 100, requestTimeoutMs: 200, checkEveryMs: 50 });
  });

  it('closes a connection whose body trickles in slower than the request timeout', async () => {
    const answer = await partialRequest(signSlackRequest(secret, command), command.length, 10);
    expect(answer.status).toBe(408);
    expect(answer.ms).toBeLessThan(3_000);
  });

  it('closes a connection whose headers never finish', async () => {
    const started = performance.now();
    const closed = await new Promise<number>((resolve) => {
      const socket = connect(Number(new URL(url).port), '127.0.0.1');
      socket.write('POST /slack/events HTTP/1.1\r\nhost: localhost\r\nx-slack-sig');
      socket.on('data', () => {});
      socket.on('close', () => resolve(performance.now() - started));
    });
    expect(closed).toBeLessThan(3_000);
  });
});
