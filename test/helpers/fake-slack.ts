import { botId, botUserId, teamId } from './payloads.ts';

export interface SlackCall {
  readonly kind: 'api' | 'response_url';
  /** Web API method (`chat.postMessage`) or undefined for response_url posts. */
  readonly method: string | undefined;
  readonly url: string;
  /** Form fields with JSON values (blocks, view) decoded, or the JSON body of a response_url post. */
  readonly args: Record<string, unknown>;
  readonly authorization: string | undefined;
  readonly at: number;
}

export interface FakeSlackOptions {
  /** Base URL of the Web API as the app is configured (SLACK_API_URL); default Slack's own. */
  readonly apiUrl?: string;
  /** users.info answers: user id -> IANA zone; absent users get America/New_York. */
  readonly zones?: Record<string, string>;
}

type Handler = (
  args: Record<string, unknown>,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

const responseUrlMaxUses = 5;

/**
 * Slack as the app sees it through the `fetch` injected into Bolt: answers the Web API methods the
 * app calls and response_url posts like Slack (including the 5-use limit), and records every call.
 */
export class FakeSlack {
  readonly calls: SlackCall[] = [];
  readonly apiUrl: string;
  readonly zones: Map<string, string>;
  /** Delay before users.info answers, to test the bounded wait. */
  usersInfoDelayMs = 0;
  /** Refuses every message with a picture, as Slack does when it cannot fetch one. */
  refuseImages = false;
  readonly #overrides = new Map<string, Handler>();
  readonly #rateLimited = new Map<string, { retryAfterS: number; left: number }>();
  readonly #httpFailures = new Map<string, { status: number; left: number }>();
  readonly #responseUrlUses = new Map<string, number>();
  readonly #waiters = new Set<() => void>();
  #ts = 1_700_000_000;

  constructor(options: FakeSlackOptions = {}) {
    this.apiUrl = options.apiUrl ?? 'https://slack.com/api/';
    this.zones = new Map(Object.entries(options.zones ?? {}));
  }

  /**
   * Answers the next `times` calls of `method` (all of them by default) with HTTP 429 and
   * `Retry-After: retryAfterS`; `undefined` clears it.
   */
  rateLimit(
    method: string,
    retryAfterS: number | undefined,
    times = Number.POSITIVE_INFINITY,
  ): void {
    if (retryAfterS === undefined) this.#rateLimited.delete(method);
    else this.#rateLimited.set(method, { retryAfterS, left: times });
  }

  /** Answers the next `times` calls of `method` with an HTTP error status and no JSON. */
  failHttp(method: string, status: number, times = Number.POSITIVE_INFINITY): void {
    this.#httpFailures.set(method, { status, left: times });
  }

  /** Replaces the answer of one Web API method (e.g. to make it fail). */
  override(method: string, handler: Handler): void {
    this.#overrides.set(method, handler);
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers);
    const rawBody = typeof init?.body === 'string' ? init.body : '';
    const authorization = headers.get('authorization') ?? undefined;
    if (url.startsWith(this.apiUrl)) {
      const method = url.slice(this.apiUrl.length).split('?')[0] ?? '';
      const args = decodeForm(rawBody);
      this.#record({ kind: 'api', method, url, args, authorization, at: Date.now() });
      const limited = this.#rateLimited.get(method);
      if (limited !== undefined && limited.left > 0) {
        limited.left -= 1;
        return new Response(JSON.stringify({ ok: false, error: 'ratelimited' }), {
          status: 429,
          headers: {
            'content-type': 'application/json',
            'retry-after': String(limited.retryAfterS),
          },
        });
      }
      if (this.refuseImages && hasImage(args.blocks)) {
        return json({ ok: false, error: 'invalid_blocks' });
      }
      const failure = this.#httpFailures.get(method);
      if (failure !== undefined && failure.left > 0) {
        failure.left -= 1;
        return new Response('upstream failure', { status: failure.status });
      }
      const answer = await this.#answer(method, args);
      return json(answer);
    }
    const args = rawBody === '' ? {} : (JSON.parse(rawBody) as Record<string, unknown>);
    this.#record({
      kind: 'response_url',
      method: undefined,
      url,
      args,
      authorization,
      at: Date.now(),
    });
    const uses = (this.#responseUrlUses.get(url) ?? 0) + 1;
    this.#responseUrlUses.set(url, uses);
    if (uses > responseUrlMaxUses) return new Response('used_url', { status: 404 });
    if (this.refuseImages && hasImage(args.blocks)) {
      return new Response('invalid_blocks', { status: 400 });
    }
    return json({ ok: true });
  };

  api(method: string): SlackCall[] {
    return this.calls.filter((call) => call.kind === 'api' && call.method === method);
  }

  /** response_url posts, to one URL when given. */
  responses(url?: string): SlackCall[] {
    return this.calls.filter(
      (call) => call.kind === 'response_url' && (url === undefined || call.url === url),
    );
  }

  /** Resolves with the first recorded call (past or future) matching `predicate`. */
  async waitFor(predicate: (call: SlackCall) => boolean, timeoutMs = 10_000): Promise<SlackCall> {
    const found = () => this.calls.find(predicate);
    const now = found();
    if (now) return now;
    return new Promise((resolve, reject) => {
      const check = () => {
        const call = found();
        if (call) {
          clearTimeout(timer);
          this.#waiters.delete(check);
          resolve(call);
        }
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`no matching Slack call within ${timeoutMs} ms; saw ${this.summary()}`));
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  /** Resolves with the `count`-th post to a response_url. */
  async waitForResponse(url: string, count = 1, timeoutMs = 10_000): Promise<SlackCall> {
    await this.waitFor(() => this.responses(url).length >= count, timeoutMs);
    return this.responses(url)[count - 1] as SlackCall;
  }

  summary(): string {
    return this.calls.map((call) => call.method ?? `POST ${call.url}`).join(', ') || 'nothing';
  }

  #record(call: SlackCall): void {
    this.calls.push(call);
    for (const waiter of [...this.#waiters]) waiter();
  }

  async #answer(method: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const override = this.#overrides.get(method);
    if (override) return override(args);
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://example.slack.com/',
          team: 'Example',
          user: 'influencers',
          team_id: teamId,
          user_id: botUserId,
          bot_id: botId,
        };
      case 'users.info': {
        if (this.usersInfoDelayMs > 0)
          await new Promise((r) => setTimeout(r, this.usersInfoDelayMs));
        const user = String(args.user);
        return {
          ok: true,
          user: {
            id: user,
            name: 'person',
            tz: this.zones.get(user) ?? 'America/New_York',
            tz_label: 'Eastern',
            tz_offset: -18_000,
          },
        };
      }
      case 'chat.postMessage': {
        this.#ts += 1;
        const ts = `${this.#ts}.000100`;
        return {
          ok: true,
          channel: args.channel,
          ts,
          message: { text: args.text, ts, bot_id: botId },
        };
      }
      case 'chat.update':
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      case 'views.publish':
      case 'views.open':
        return { ok: true, view: { id: 'V0VIEW0001', ...(args.view as object) } };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }
}

function hasImage(blocks: unknown): boolean {
  return (
    Array.isArray(blocks) &&
    blocks.some(
      (block: { type?: unknown; accessory?: { type?: unknown } }) =>
        block.type === 'image' || block.accessory?.type === 'image',
    )
  );
}

function decodeForm(body: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    args[key] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return args;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}
