/**
 * Hostile traffic for the slack bench (and the `hostile` part, which runs only that phase), run in
 * a process of its own: keeps `concurrency` unsigned requests with 3.9 MB bodies in flight against
 * one URL, each replaced as soon as it ends, until told to stop. What the app does with them shows
 * in its acks and its memory.
 */
import { request } from 'node:http';

/** Just under Bolt's own 4 MB body limit, as an attacker probing it would send. */
export const hostileBodyBytes = 3.9 * 1024 * 1024;
const hostileRequestTimeoutMs = 15_000;

export interface HostileReport {
  readonly kind: 'hostile-report';
  readonly sent: number;
  readonly refused: number;
  readonly cut: number;
}

/** One unsigned POST of the whole body; resolves with its status, or 0 when the connection was cut. */
function unsignedPost(url: URL, body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': body.length,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    // A server that reads slowly must not keep the phase from ending.
    req.setTimeout(hostileRequestTimeoutMs, () => req.destroy());
    req.end(body);
  });
}

/**
 * `npm run bench -- hostile`: the slack bench's hostile phase alone (the whole slack part runs it
 * too, after its rounds), for a quick look at what hostile bodies cost.
 */
export async function run(): Promise<void> {
  const slack = await import('./slack.ts');
  await slack.run({ hostileOnly: true });
}

/** The `hostile` role: starts on `{ kind: 'hostile-start', url, concurrency }`, reports on stop. */
export async function hostileRole(): Promise<void> {
  const body = Buffer.alloc(hostileBodyBytes, 'a');
  let running = false;
  let sent = 0;
  let refused = 0;
  let cut = 0;
  const loop = async (url: URL) => {
    while (running) {
      sent += 1;
      const status = await unsignedPost(url, body);
      if (status === 0) cut += 1;
      else refused += 1;
    }
  };
  const workers: Promise<void>[] = [];
  process.on('message', (message: { kind?: string; url?: string; concurrency?: number }) => {
    if (message.kind === 'hostile-start' && message.url !== undefined) {
      running = true;
      const url = new URL(message.url);
      for (let i = 0; i < (message.concurrency ?? 200); i += 1) workers.push(loop(url));
    } else if (message.kind === 'hostile-stop') {
      running = false;
      void Promise.all(workers).then(() => {
        const report: HostileReport = { kind: 'hostile-report', sent, refused, cut };
        process.send?.(report);
      });
    }
  });
  process.send?.({ kind: 'hostile-ready' });
}
