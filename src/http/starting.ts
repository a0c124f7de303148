/**
 * The gate in front of everything the port serves, for the two times the app is there but not
 * taking work. HTTP mode binds its port before it checks the bot token with Slack, opens the
 * database and initialises Bolt: a platform that stops a process which has not bound `$PORT` in
 * time (Heroku: 60 s) would otherwise restart it in a loop whenever Slack is slow to answer
 * `auth.test`. Until the app is ready, `GET /healthz` answers 503 `{"status":"starting"}`; once it
 * drains after SIGTERM, 503 `{"status":"stopping"}`, so a health probe sees why rather than a
 * refused connection. Every other request gets 503 with a Retry-After, which Slack retries (another
 * instance, or this one restarted, takes it); nothing reaches the front door or Bolt then.
 */
import type { RequestListener } from 'node:http';
import { refuse } from './refusal.ts';

/** Slack retries a refused event after about a minute; a second is enough for anyone polling. */
const retryAfterS = 1;

export const healthzPath = '/healthz';

export interface StartingGateOptions {
  /** The listener once the app is ready (the front door). */
  readonly next: RequestListener;
  /** True once the token is confirmed, the store open and Bolt initialised. */
  readonly ready: () => boolean;
  /** True from SIGTERM on, while the work in flight drains: no new work is taken. */
  readonly stopping?: () => boolean;
  /** Said beside `status` by `/healthz` while starting (version, mode: never a secret). */
  readonly about: Readonly<Record<string, string>>;
}

export function startingGate(options: StartingGateOptions): RequestListener {
  const bodies = {
    starting: JSON.stringify({ status: 'starting', ...options.about }),
    stopping: JSON.stringify({ status: 'stopping', ...options.about }),
  };
  return (req, res) => {
    const phase = options.stopping?.() ? 'stopping' : options.ready() ? 'ready' : 'starting';
    if (phase === 'ready') {
      options.next(req, res);
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === healthzPath) {
      res.writeHead(503, {
        'content-type': 'application/json',
        'retry-after': `${retryAfterS}`,
        ...(phase === 'stopping' ? { connection: 'close' } : {}),
      });
      res.end(bodies[phase]);
      return;
    }
    refuse(res, { status: 503, reason: phase }, { 'retry-after': `${retryAfterS}` });
  };
}
