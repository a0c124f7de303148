import { request } from 'undici';
import type { Logger } from '../../logger.ts';
import type { SlackMessage } from '../../model/message.ts';
import { lighterVersions } from './blocks-fallback.ts';

/** Slack accepts five posts to one response_url within 30 minutes. */
export const responseUrlMaxUses = 5;

export interface ResponsePayload extends Partial<SlackMessage> {
  readonly response_type?: 'ephemeral' | 'in_channel';
  readonly replace_original?: boolean;
  readonly delete_original?: boolean;
}

/**
 * One response_url with its use budget. Every post through it is counted so a lookup can never
 * spend a sixth use that Slack would reject; a refused or failed post is logged, not thrown, because
 * the person who would read an error about it is the one the post could not reach.
 */
export class ResponseUrl {
  readonly #url: string;
  readonly #fetch: typeof fetch;
  readonly #logger: Logger;
  #uses = 0;

  constructor(url: string, fetchFn: typeof fetch, logger: Logger) {
    this.#url = url;
    this.#fetch = fetchFn;
    this.#logger = logger;
  }

  get uses(): number {
    return this.#uses;
  }

  /**
   * Resolves true when Slack accepted the post. A refused message is posted again, one more use
   * each, without its table and chart blocks (the list and a text table in their place: a
   * response_url answers them with an error status) and then without its pictures (which it
   * answers with `invalid_blocks`).
   */
  async send(payload: ResponsePayload): Promise<boolean> {
    const { blocks } = payload;
    const lighter =
      blocks === undefined
        ? undefined
        : lighterVersions({ text: '', ...payload, blocks }, this.#logger);
    let attempt = payload;
    for (;;) {
      const refusal = await this.#send(attempt);
      if (refusal === undefined) return true;
      if (lighter === undefined || !refusesBlocks(refusal)) return false;
      const next = lighter.next();
      if (next.done) return false;
      attempt = next.value;
    }
  }

  /**
   * One POST of `payload`. The global `fetch` builds a WHATWG Request, Headers and streams for each
   * post, garbage that under load lengthens the collector's pauses and so the acks of other
   * requests; undici's `request()` posts the same bytes without them. An injected fetch (tests)
   * is used as given.
   */
  async #post(payload: ResponsePayload): Promise<{ ok: boolean; status: number; body: string }> {
    const init = {
      method: 'POST' as const,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(responsePostTimeoutMs),
    };
    if (this.#fetch === globalThis.fetch) {
      const response = await request(this.#url, init);
      const body = await response.body.text();
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { ok, status: response.statusCode, body };
    }
    const response = await this.#fetch(this.#url, init);
    return { ok: response.ok, status: response.status, body: await response.text() };
  }

  /** Undefined when Slack accepted the post, else what it answered (or `failed`). */
  async #send(payload: ResponsePayload): Promise<Refusal | undefined> {
    if (this.#uses >= responseUrlMaxUses) {
      this.#logger.error({ uses: this.#uses }, 'response_url use budget exhausted; post dropped');
      return 'exhausted';
    }
    this.#uses += 1;
    try {
      const response = await this.#post(payload);
      const { body } = response;
      if (!response.ok) {
        this.#logger.warn(
          { status: response.status, body: body.slice(0, 200) },
          'response_url post refused',
        );
        return { status: response.status, body: body.trim() };
      }
      return undefined;
    } catch (error) {
      this.#logger.warn({ err: error }, 'response_url post failed');
      return 'failed';
    }
  }
}

/** A response_url post that takes longer than this is abandoned; Slack answers in milliseconds. */
const responsePostTimeoutMs = 10_000;

/** Why a post did not land: the use budget, the request failing, or Slack's error answer. */
type Refusal = 'exhausted' | 'failed' | { readonly status: number; readonly body: string };

/**
 * Slack's answer to blocks it refuses: `invalid_blocks` (a picture it could not fetch), or an
 * error status without it (a table or chart it does not accept yet). 404 and 410 say the URL is
 * used up or expired, which no lighter message changes.
 */
function refusesBlocks(refusal: Refusal): boolean {
  if (typeof refusal === 'string') return false;
  if (refusal.body.includes('invalid_blocks')) return true;
  return (
    refusal.status >= 400 &&
    refusal.status < 500 &&
    refusal.status !== 404 &&
    refusal.status !== 410
  );
}
