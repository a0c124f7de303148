/**
 * A request body read within a limit: a declared length over it is refused before a byte is read,
 * and an undeclared one is read no further than the limit, so a hostile sender costs what the
 * limit allows and no more.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Refusal } from './refusal.ts';

/** A declared body length over the limit, refused before reading a byte of it. */
export function declaredTooLarge(headers: IncomingHttpHeaders, limit: number): Refusal | undefined {
  const declared = Number(headers['content-length'] ?? 0);
  return declared > limit ? { status: 413, reason: 'declared body too large' } : undefined;
}

/** The body, or undefined once it passes `limit` bytes (the rest is never read). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}
