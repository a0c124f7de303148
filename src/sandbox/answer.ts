/**
 * What the sandbox sends back and how it goes on the wire. Routes and faults build answers as
 * plain values; only the server writes them, so both can be read without a socket.
 */
import type { ServerResponse } from 'node:http';

export interface Answer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string;
  readonly contentType?: string;
}

/** An answer whose body is generated part by part as the client reads it. */
export interface StreamedAnswer {
  readonly status: number;
  readonly contentType: string;
  /** Sent as Content-Length when set; otherwise the body is chunked. */
  readonly declaredBytes?: number;
  parts(): Iterable<string>;
}

/** A part of a request that passed its checks, or the answer refusing it at the first failure. */
export type Checked<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly answer: Answer };

/** The request's record, which keeps the status actually sent. */
export interface Answered {
  status: number;
}

export function json(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Answer {
  return {
    status,
    headers,
    body: JSON.stringify(body),
    contentType: 'application/json; charset=utf-8',
  };
}

export function refused(answer: Answer): Checked<never> {
  return { ok: false, answer };
}

/** True once the client hung up or the sandbox dropped the connection: nothing more can be sent. */
export function isGone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded || res.socket === null || res.socket.destroyed;
}

function headersOf(answer: Answer, length: number): Record<string, string | number> {
  return {
    ...(answer.contentType === undefined ? {} : { 'content-type': answer.contentType }),
    'content-length': length,
    ...answer.headers,
  };
}

export function send(res: ServerResponse, record: Answered, answer: Answer): void {
  if (isGone(res)) return;
  const body = Buffer.from(answer.body);
  record.status = answer.status;
  res.writeHead(answer.status, headersOf(answer, body.length));
  res.end(body);
}

/**
 * Sends the headers and half the body at once, then the rest after `stallMs`: a client must time
 * out on a body that stops arriving, not only on headers that never come.
 */
export async function sendSlowly(
  res: ServerResponse,
  record: Answered,
  answer: Answer,
  stallMs: number,
  pause: (ms: number) => Promise<void>,
): Promise<void> {
  if (isGone(res)) return;
  const body = Buffer.from(answer.body);
  const half = Math.floor(body.length / 2);
  record.status = answer.status;
  res.writeHead(answer.status, headersOf(answer, body.length));
  res.flushHeaders();
  res.write(body.subarray(0, half));
  await pause(stallMs);
  if (isGone(res)) return;
  res.end(body.subarray(half));
}

/**
 * Writes a streamed answer a part at a time, waiting whenever the socket's buffer is full, so the
 * sandbox generates no faster than the client reads and stops as soon as the client hangs up.
 * `record.bodyBytesWritten` counts what was handed to the socket.
 */
export async function sendStreamed(
  res: ServerResponse,
  record: Answered & { bodyBytesWritten?: number },
  answer: StreamedAnswer,
): Promise<void> {
  if (isGone(res)) return;
  record.status = answer.status;
  record.bodyBytesWritten = 0;
  res.writeHead(answer.status, {
    'content-type': answer.contentType,
    ...(answer.declaredBytes === undefined ? {} : { 'content-length': answer.declaredBytes }),
  });
  for (const part of answer.parts()) {
    if (isGone(res)) return;
    record.bodyBytesWritten += Buffer.byteLength(part);
    if (!res.write(part)) await drainedOrGone(res);
  }
  if (!isGone(res)) res.end();
}

function drainedOrGone(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
