import type { Logger } from '../../logger.ts';
import type { SlackMessage } from '../../model/message.ts';
import { withoutImages } from '../../render/blocks.ts';

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
   * Resolves true when Slack accepted the post. A message refused for a picture Slack could not
   * fetch is posted once more without its pictures (one more use).
   */
  async send(payload: ResponsePayload): Promise<boolean> {
    const refusal = await this.#post(payload);
    if (!refusal?.includes('invalid_blocks') || payload.blocks === undefined) {
      return refusal === undefined;
    }
    const plain = withoutImages({ text: payload.text ?? '', ...payload, blocks: payload.blocks });
    if (plain.blocks === payload.blocks) return false;
    return (await this.#post(plain)) === undefined;
  }

  /** Undefined when Slack accepted the post, else what it answered (or `failed`). */
  async #post(payload: ResponsePayload): Promise<string | undefined> {
    if (this.#uses >= responseUrlMaxUses) {
      this.#logger.error({ uses: this.#uses }, 'response_url use budget exhausted; post dropped');
      return 'exhausted';
    }
    this.#uses += 1;
    try {
      const response = await this.#fetch(this.#url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(responsePostTimeoutMs),
      });
      const body = await response.text();
      if (!response.ok) {
        this.#logger.warn(
          { status: response.status, body: body.slice(0, 200) },
          'response_url post refused',
        );
        return body.trim() === '' ? `HTTP ${response.status}` : body.trim();
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
