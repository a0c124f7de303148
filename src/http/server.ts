/**
 * The app's own HTTP server in HTTP mode, serving `/slack/events`, `/mcp` and `/healthz`. Bolt's
 * `app.start()` would make a server without timeouts, where a client that trickles its headers or
 * body holds a connection forever.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Slack sends a whole request at once; a client slower than this is not Slack. */
export const headersTimeoutMs = 5_000;
export const requestTimeoutMs = 10_000;
/** How often Node checks those timeouts (by default every 30 s, far later than they expire). */
const timeoutCheckEveryMs = 1_000;

export interface ServerTimeouts {
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** How often they are checked; tests with short timeouts check more often. */
  readonly checkEveryMs?: number;
}

/** An HTTP server that cuts slow clients; nothing listens until {@link listen}. */
export function appServer(listener: RequestListener, timeouts: ServerTimeouts = {}): Server {
  return createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs ?? headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs ?? requestTimeoutMs,
      connectionsCheckingInterval: timeouts.checkEveryMs ?? timeoutCheckEveryMs,
    },
    listener,
  );
}

/** Binds `port` (0: any free port); resolves with the port bound, rejects on EADDRINUSE and the like. */
export function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops accepting connections; resolves once every open one has closed. */
export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
  });
}
