import { Writable } from 'node:stream';

/** A stream that keeps what is written to it, as text to read after (or during) a run. */
export function textSink(): { readonly stream: Writable; text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}
