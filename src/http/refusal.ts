/**
 * A refused request: the status that says why, and an answer that ends the connection without
 * reading the rest of the body. Every door the app keeps (`/slack/events`, `/mcp`, the starting
 * gate) refuses this way.
 */
import type { ServerResponse } from 'node:http';

/** Why a request was refused, and the status that says so. */
export interface Refusal {
  readonly status: 400 | 401 | 404 | 405 | 413 | 503;
  readonly reason: string;
}

/**
 * Answers without a body and closes the connection as soon as the answer is handed to the system,
 * reading nothing more of the request. Left to itself, Node would read the rest of the body and
 * throw it away before closing: a few hundred hostile clients each sending megabytes then keep the
 * app busy reading and hold socket buffers worth tens of MB.
 */
export function refuse(
  res: ServerResponse,
  refusal: Refusal,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) return;
  // Taken now: once the answer is out, Node detaches the socket from the response.
  const socket = res.socket;
  res.writeHead(refusal.status, { ...headers, connection: 'close' });
  res.end(() => socket?.destroy());
}
