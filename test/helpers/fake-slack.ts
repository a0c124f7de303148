import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  assistantThreadsAnswer,
  chunkRefusal,
  FakeSessions,
  fakeStreamLimits,
} from './fake-agent-threads.ts';
import { FakeOAuth } from './fake-oauth.ts';
import { botId, botUserId, teamId } from './payloads.ts';
import { argumentRefusal, documentedErrors, slackMethod, tierPerMinute } from './slack-methods.ts';

export { fakeStreamLimits };

export interface SlackCall {
  readonly kind: 'api' | 'response_url' | 'upload';
  /** Web API method (`chat.postMessage`) or undefined for response_url posts and uploads. */
  readonly method: string | undefined;
  readonly url: string;
  /**
   * Form fields with JSON values (blocks, view) decoded, the JSON body of a response_url post, or
   * for the bytes posted to an upload URL `{ fileId, bytes }` (`bytes` a Buffer).
   */
  readonly args: Record<string, unknown>;
  readonly authorization: string | undefined;
  readonly at: number;
}

export interface FakeSlackOptions {
  /** Base URL of the Web API as the app is configured (SLACK_API_URL); default Slack's own. */
  readonly apiUrl?: string;
  /** users.info answers: user id -> IANA zone; absent users get America/New_York. */
  readonly zones?: Record<string, string>;
  /**
   * users.info answers asked with `include_locale`: user id -> Slack locale; absent users get
   * en-US, Slack's default.
   */
  readonly locales?: Record<string, string>;
}

/** A streamed message as the person sees it: what was appended, in order, and how it ended. */
export interface FakeStream {
  readonly ts: string;
  readonly channel: string;
  readonly threadTs: string;
  /** Every chunk sent, from start to stop (markdown given as `markdown_text` counts as one). */
  readonly chunks: Record<string, unknown>[];
  stopped: boolean;
  /** The person pressed Stop and Slack stopped the stream itself. */
  stoppedByUser: boolean;
  /** The blocks chat.stopStream added. */
  blocks: unknown[] | undefined;
}

type Handler = (
  args: Record<string, unknown>,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

const responseUrlMaxUses = 5;

/** The outputs manifest.yml requires of the app's workflow steps. */
const requiredFunctionOutputs: readonly string[] = (() => {
  const manifest = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as {
    functions?: Record<string, { output_parameters?: Record<string, { is_required?: boolean }> }>;
  };
  return Object.values(manifest.functions ?? {}).flatMap((step) =>
    Object.entries(step.output_parameters ?? {})
      .filter(([, output]) => output.is_required === true)
      .map(([name]) => name),
  );
})();
/** Slack keeps at most 100 pins per channel and answers `too_many_pins` beyond. */
const maxPins = 100;

/** A canvas as the fake keeps it: who made it, where it is tabbed, what it holds. */
export interface FakeCanvas {
  readonly id: string;
  /** `channel`: a channel's own canvas; `standalone`: made with canvases.create. */
  readonly kind: 'channel' | 'standalone';
  /** `app`: made through the Web API by this app; `person`: made by someone in Slack. */
  readonly by: 'app' | 'person';
  readonly channelId: string | undefined;
  readonly title: string | undefined;
  markdown: string;
}

/**
 * Slack as the app sees it through the `fetch` injected into Bolt: answers the Web API methods the
 * app calls and response_url posts like Slack (including the 5-use limit), and records every call.
 */
export class FakeSlack {
  readonly calls: SlackCall[] = [];
  /**
   * Calls of a method outside the method table, and answers with an error code its page does not
   * list (an override's): a test that made one fails, whoever caught the error.
   */
  readonly violations: string[] = [];
  readonly apiUrl: string;
  readonly zones: Map<string, string>;
  readonly locales: Map<string, string>;
  /** Delay before users.info answers, to test the bounded wait. */
  usersInfoDelayMs = 0;
  /** Refuses every message with a picture, as Slack does when it cannot fetch one. */
  refuseImages = false;
  /**
   * Refuses every message or view holding a `data_table` or `data_visualization` block, as a
   * workspace those blocks have not reached yet does: `invalid_blocks` from the Web API, an error
   * status from a response_url.
   */
  refuseNewBlocks = false;
  /**
   * chat.startStream's refusal where streaming is not offered (a channel type it does not stream
   * to, an app whose Messages tab is off); undefined streams.
   */
  refuseStreaming: 'channel_type_not_supported' | 'messages_tab_disabled' | undefined;
  /**
   * Each method answers HTTP 429 past its documented tier (calls a minute, counted on
   * {@link clock}), with the Retry-After that frees the next call, as Slack does per workspace.
   */
  enforceTiers = false;
  /** The fake's clock for rate tiers; a test moves it to wait out a Retry-After. */
  clock: () => number = () => Date.now();
  /** Streamed messages by ts, in the order they started. */
  readonly streams = new Map<string, FakeStream>();
  /** Agent sessions by thread (agents.sessions.*, chat.stopStream's `session_status`). */
  readonly sessions = new FakeSessions();
  /**
   * chat.update of a message whose ts is here answers `ok: false` with its error, as Slack does
   * for `edit_window_closed` (a workspace that limits edits) and `message_not_found` (deleted).
   */
  readonly updateErrors = new Map<string, string>();
  /** When set, pins.add answers `ok: false` with it (`too_many_pins`, `not_pinnable`). */
  pinError: string | undefined;
  /** Pinned messages by channel, as pins.add and pins.remove leave them. */
  readonly pins = new Map<string, Set<string>>();
  /** Workflow step runs ended, by execution id: how (functions.completeSuccess or completeError). */
  readonly endedExecutions = new Map<string, string>();
  /** The status the upload URL answers with; anything but 200 refuses the bytes. */
  uploadStatus = 200;
  /** Canvases by id, and each channel's own canvas. */
  readonly canvases = new Map<string, FakeCanvas>();
  readonly channelCanvases = new Map<string, string>();
  /**
   * A free workspace: `canvases.create` makes only a canvas tabbed in a channel, one canvas tab
   * per channel (`free_team_canvas_tab_already_exists` where the channel has one), and the app's
   * own canvases cannot be edited (`free_teams_cannot_edit_standalone_canvases`) when
   * {@link freeTeamEditsStandalone} is false.
   */
  freeTeam = false;
  /** Whether a free workspace lets the app edit the canvas it tabbed in a channel. */
  freeTeamEditsStandalone = true;
  /** When set, canvases.edit answers `ok: false` with it (`canvas_editing_locked`...). */
  canvasEditError: string | undefined;
  /** A plan without channel canvases: Slack refuses `conversations.canvases.create`. */
  noChannelCanvases = false;
  /** Where uploads are posted: Slack answers files.getUploadURLExternal with a URL under it. */
  readonly uploadUrl = 'https://files.slack.test/upload/v1/';
  /** The codes and refresh tokens oauth.v2.access takes. */
  readonly oauth = new FakeOAuth();
  readonly #overrides = new Map<string, Handler>();
  readonly #rateLimited = new Map<string, { retryAfterS: number; left: number }>();
  /** When each method was called, on {@link clock}, for its tier. */
  readonly #tierCalls = new Map<string, number[]>();
  readonly #httpFailures = new Map<string, { status: number; left: number }>();
  readonly #lostAnswers = new Map<string, { skip: number; left: number }>();
  readonly #responseUrlUses = new Map<string, number>();
  readonly #waiters = new Set<() => void>();
  readonly #fileIds = new Map<SlackCall, string>();
  #ts = 1_700_000_000;
  #files = 0;
  #canvasCount = 0;

  constructor(options: FakeSlackOptions = {}) {
    this.apiUrl = options.apiUrl ?? 'https://slack.com/api/';
    this.zones = new Map(Object.entries(options.zones ?? {}));
    this.locales = new Map(Object.entries(options.locales ?? {}));
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

  /**
   * Seconds until `method` may be called again under its tier, when {@link enforceTiers} is on and
   * its calls of the last minute reached the tier; else undefined, and the call counts.
   */
  #tierWait(method: string): number | undefined {
    const tier = slackMethod(method)?.tier;
    if (!this.enforceTiers || tier === undefined || tier === 'special') return undefined;
    const now = this.clock();
    const recent = (this.#tierCalls.get(method) ?? []).filter((at) => at > now - 60_000);
    this.#tierCalls.set(method, recent);
    const oldest = recent[0];
    if (recent.length >= tierPerMinute[tier] && oldest !== undefined) {
      return Math.max(1, Math.ceil((oldest + 60_000 - now) / 1000));
    }
    recent.push(now);
    return undefined;
  }

  /** `calls` calls of `method` made now by other work of the workspace, counted by its tier. */
  spendTier(method: string, calls: number): void {
    const now = this.clock();
    this.#tierCalls.set(method, [
      ...(this.#tierCalls.get(method) ?? []),
      ...Array(calls).fill(now),
    ]);
  }

  /** Answers the next `times` calls of `method` with an HTTP error status and no JSON. */
  failHttp(method: string, status: number, times = Number.POSITIVE_INFINITY): void {
    this.#httpFailures.set(method, { status, left: times });
  }

  /**
   * `times` calls of `method`, after the next `skip`, are done by Slack, but their answers never
   * reach the app: the connection drops after the request was read, and `fetch` rejects as it
   * does then. What a timed-out call leaves behind: the app cannot know whether Slack did it.
   */
  loseAnswer(method: string, times = 1, skip = 0): void {
    this.#lostAnswers.set(method, { skip, left: times });
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
    if (url.startsWith(this.uploadUrl)) return this.#upload(url, init?.body, authorization);
    if (url.startsWith(this.apiUrl)) {
      const method = url.slice(this.apiUrl.length).split('?')[0] ?? '';
      const args = decodeForm(rawBody);
      this.#record({ kind: 'api', method, url, args, authorization, at: Date.now() });
      if (slackMethod(method) === undefined) {
        throw this.#violation(
          `${method} is not in the fake's method table (test/helpers/slack-methods.ts)`,
        );
      }
      const limited = this.#rateLimited.get(method);
      const tierWaitS = this.#tierWait(method);
      if ((limited !== undefined && limited.left > 0) || tierWaitS !== undefined) {
        if (limited !== undefined && limited.left > 0) limited.left -= 1;
        return new Response(JSON.stringify({ ok: false, error: 'ratelimited' }), {
          status: 429,
          headers: {
            'content-type': 'application/json',
            'retry-after': String(tierWaitS ?? limited?.retryAfterS ?? 1),
          },
        });
      }
      // Views are checked against the view schema: Slack names no block, only the view.
      const blocksRefusal = method.startsWith('views.') ? 'invalid_arguments' : 'invalid_blocks';
      if (this.refuseImages && hasImage(args.blocks)) {
        return json({ ok: false, error: blocksRefusal });
      }
      const blocks = args.blocks ?? (args.view as { blocks?: unknown } | undefined)?.blocks;
      const refused = this.refuseNewBlocks ? newBlockAt(blocks) : undefined;
      if (refused !== undefined) {
        const pointer = method.startsWith('views.') ? '/view' : `/blocks/${refused.at}/type`;
        return json({
          ok: false,
          error: blocksRefusal,
          response_metadata: {
            messages: [`[ERROR] unsupported type: ${refused.type} [json-pointer:${pointer}]`],
          },
        });
      }
      const failure = this.#httpFailures.get(method);
      if (failure !== undefined && failure.left > 0) {
        failure.left -= 1;
        return new Response('upstream failure', { status: failure.status });
      }
      const refusal = argumentRefusal(method, args);
      const answered = refusal === undefined ? await this.#answer(method, args) : undefined;
      const answer = method === 'conversations.info' ? this.#withCanvases(answered) : answered;
      const lost = this.#lostAnswers.get(method);
      if (lost !== undefined && lost.skip > 0) lost.skip -= 1;
      else if (lost !== undefined && lost.left > 0) {
        lost.left -= 1;
        throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
      }
      const error = answer === undefined ? refusal : answer.ok === false ? answer.error : undefined;
      if (error !== undefined && !documentedErrors(method).has(String(error))) {
        throw this.#violation(
          `${method} does not document ${String(error)}: Slack never answers it`,
        );
      }
      return json(answer ?? { ok: false, error: refusal });
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
    if (this.refuseNewBlocks && newBlockAt(args.blocks) !== undefined) {
      return new Response('invalid_blocks', { status: 400 });
    }
    return json({ ok: true });
  };

  /** The bytes posted to an upload URL, which Slack answers with a plain 200. */
  async #upload(url: string, body: unknown, authorization: string | undefined): Promise<Response> {
    let bytes = Buffer.alloc(0);
    if (body instanceof FormData) {
      const part = [...body.values()].find((value) => typeof value !== 'string');
      if (part !== undefined) bytes = Buffer.from(await (part as Blob).arrayBuffer());
    } else if (body instanceof Uint8Array) {
      bytes = Buffer.from(body);
    } else if (typeof body === 'string') {
      bytes = Buffer.from(body, 'utf8');
    }
    const fileId = url.slice(this.uploadUrl.length);
    this.#record({
      kind: 'upload',
      method: undefined,
      url,
      args: { fileId, bytes },
      authorization,
      at: Date.now(),
    });
    return new Response(this.uploadStatus === 200 ? `OK - ${bytes.length}` : 'refused', {
      status: this.uploadStatus,
    });
  }

  /**
   * A call the real Slack could not have answered as asked: kept in {@link violations} (a caller
   * may swallow the failure) and thrown at the caller, as no answer would be faithful.
   */
  #violation(message: string): Error {
    this.violations.push(message);
    return new Error(message);
  }

  /**
   * functions.completeSuccess and completeError: a run ends once
   * (`execution_not_in_running_state` after), and its outputs must hold every output the
   * manifest requires, not empty (`parameter_validation_failed`).
   */
  #endExecution(method: string, args: Record<string, unknown>): Record<string, unknown> {
    const id = String(args.function_execution_id);
    if (this.endedExecutions.has(id)) return { ok: false, error: 'execution_not_in_running_state' };
    if (method === 'functions.completeSuccess') {
      const outputs = (args.outputs ?? {}) as Record<string, unknown>;
      const missing = requiredFunctionOutputs.filter(
        (name) => outputs[name] === undefined || outputs[name] === '',
      );
      if (missing.length > 0) return { ok: false, error: 'parameter_validation_failed' };
    }
    this.endedExecutions.set(id, method);
    return { ok: true };
  }

  /**
   * A channel as conversations.info describes it, with the canvases the fake keeps there, over
   * whatever an override says of the channel (docs.slack.dev/reference/objects/conversation-object:
   * `properties.canvas` is the channel's canvas, `file_id`, `is_empty`, `quip_thread_id`; the canvas
   * tabs are `properties.tabs` entries of `type: "canvas"` whose `data.file_id` names the canvas).
   */
  #withCanvases(answer: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    const channel = answer?.channel as Record<string, unknown> | undefined;
    if (answer?.ok !== true || channel === undefined || channel.properties !== undefined) {
      return answer;
    }
    const id = String(channel.id);
    const own = this.channelCanvases.get(id);
    const tabs = [...this.canvases.values()]
      .filter((canvas) => canvas.channelId === id)
      .map((canvas, index) => ({
        id: `Ct0TAB${String(index + 1).padStart(4, '0')}`,
        type: 'canvas',
        label: canvas.kind === 'channel' ? '' : (canvas.title ?? ''),
        data: { file_id: canvas.id },
      }));
    const properties = {
      ...(own === undefined
        ? {}
        : {
            canvas: {
              file_id: own,
              is_empty: this.canvases.get(own)?.markdown === '',
              quip_thread_id: `Q${own}`,
            },
          }),
      ...(tabs.length === 0 ? {} : { tabs }),
    };
    return { ...answer, channel: { ...channel, properties } };
  }

  /** Someone in Slack gives the channel a canvas of their own. */
  personCanvas(channelId: string, markdown = 'Our channel notes'): FakeCanvas {
    return this.#newCanvas({ kind: 'channel', by: 'person', channelId, title: 'Notes', markdown });
  }

  #newCanvas(canvas: Omit<FakeCanvas, 'id'>): FakeCanvas {
    this.#canvasCount += 1;
    const made = { id: `F0CANVAS${String(this.#canvasCount).padStart(4, '0')}`, ...canvas };
    this.canvases.set(made.id, made);
    if (made.kind === 'channel' && made.channelId !== undefined) {
      this.channelCanvases.set(made.channelId, made.id);
    }
    return made;
  }

  /** The canvas methods as Slack documents them, for the app's own canvases. */
  #canvasAnswer(method: string, args: Record<string, unknown>): Record<string, unknown> {
    const markdownOf = (content: unknown) => {
      const doc = content as { type?: unknown; markdown?: unknown } | undefined;
      return doc?.type === 'markdown' && typeof doc.markdown === 'string' ? doc.markdown : '';
    };
    const channelId = typeof args.channel_id === 'string' ? args.channel_id : undefined;
    const title = typeof args.title === 'string' ? args.title : undefined;
    switch (method) {
      case 'conversations.canvases.create': {
        if (this.noChannelCanvases) {
          return { ok: false, error: 'team_tier_cannot_create_channel_canvases' };
        }
        if (channelId === undefined) return { ok: false, error: 'invalid_arguments' };
        if (this.channelCanvases.has(channelId)) {
          return { ok: false, error: 'channel_canvas_already_exists' };
        }
        const markdown = markdownOf(args.document_content);
        const made = this.#newCanvas({ kind: 'channel', by: 'app', channelId, title, markdown });
        return { ok: true, canvas_id: made.id };
      }
      case 'canvases.create': {
        if (this.freeTeam) {
          if (channelId === undefined) {
            return { ok: false, error: 'free_teams_cannot_create_non_tabbed_canvases' };
          }
          const tabbed = [...this.canvases.values()].some((c) => c.channelId === channelId);
          if (tabbed) return { ok: false, error: 'free_team_canvas_tab_already_exists' };
        }
        const markdown = markdownOf(args.document_content);
        const made = this.#newCanvas({ kind: 'standalone', by: 'app', channelId, title, markdown });
        return { ok: true, canvas_id: made.id };
      }
      default: {
        const canvas = this.canvases.get(String(args.canvas_id));
        if (canvas === undefined) return { ok: false, error: 'canvas_not_found' };
        if (this.canvasEditError !== undefined) return { ok: false, error: this.canvasEditError };
        if (this.freeTeam && !this.freeTeamEditsStandalone && canvas.kind === 'standalone') {
          return { ok: false, error: 'free_teams_cannot_edit_standalone_canvases' };
        }
        const changes = args.changes;
        // Slack takes one operation per call.
        if (!Array.isArray(changes) || changes.length !== 1) {
          return { ok: false, error: 'invalid_arguments' };
        }
        const change = changes[0] as {
          operation?: unknown;
          section_id?: unknown;
          document_content?: unknown;
        };
        const markdown = markdownOf(change.document_content);
        switch (change.operation) {
          case 'replace':
            if (change.section_id !== undefined)
              return { ok: false, error: 'canvas_editing_failed' };
            canvas.markdown = markdown;
            return { ok: true };
          case 'insert_at_end':
            canvas.markdown += `\n${markdown}`;
            return { ok: true };
          case 'insert_at_start':
            canvas.markdown = `${markdown}\n${canvas.markdown}`;
            return { ok: true };
          default:
            return { ok: false, error: 'canvas_editing_failed' };
        }
      }
    }
  }

  /** The files uploaded and completed, in order: what a person finds in the conversation. */
  files(): {
    readonly fileId: string;
    readonly bytes: Buffer;
    readonly channel: unknown;
    readonly threadTs: unknown;
    readonly comment: unknown;
    readonly filename: unknown;
  }[] {
    return this.api('files.completeUploadExternal').flatMap((call) => {
      const files = (call.args.files ?? []) as { id: string }[];
      return files.map((file) => {
        const upload = this.calls.find(
          (other) => other.kind === 'upload' && other.args.fileId === file.id,
        );
        const asked = this.api('files.getUploadURLExternal').find(
          (other) => this.#fileIds.get(other) === file.id,
        );
        return {
          fileId: file.id,
          bytes: (upload?.args.bytes as Buffer | undefined) ?? Buffer.alloc(0),
          channel: call.args.channel_id,
          threadTs: call.args.thread_ts,
          comment: call.args.initial_comment,
          filename: asked?.args.filename,
        };
      });
    });
  }

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

  /**
   * chat.startStream, appendStream and stopStream as Slack documents them: a thread reply that
   * grows, markdown up to 12,000 characters a call, task text up to 256, at most 50 blocks at
   * stop, nothing after stop, recipients required outside DMs, and a known `session_status`.
   */
  #stream(method: string, args: Record<string, unknown>): Record<string, unknown> {
    const markdown = args.markdown_text;
    if (typeof markdown === 'string' && markdown.length > fakeStreamLimits.markdown) {
      return { ok: false, error: 'msg_too_long' };
    }
    const refused = chunkRefusal(args.chunks);
    if (refused !== undefined) return { ok: false, error: refused };
    const sent = [
      ...(typeof markdown === 'string' ? [{ type: 'markdown_text', text: markdown }] : []),
      ...((args.chunks as Record<string, unknown>[] | undefined) ?? []),
    ];
    const channel = String(args.channel);
    if (method === 'chat.startStream') {
      if (this.refuseStreaming !== undefined) return { ok: false, error: this.refuseStreaming };
      // Streamed messages are replies to a person's request.
      if (typeof args.thread_ts !== 'string') return { ok: false, error: 'invalid_arguments' };
      if (!channel.startsWith('D') && !args.recipient_user_id) {
        return { ok: false, error: 'missing_recipient_user_id' };
      }
      if (!channel.startsWith('D') && !args.recipient_team_id) {
        return { ok: false, error: 'missing_recipient_team_id' };
      }
      this.#ts += 1;
      const ts = `${this.#ts}.000700`;
      this.streams.set(ts, {
        ts,
        channel,
        threadTs: args.thread_ts,
        chunks: sent,
        stopped: false,
        stoppedByUser: false,
        blocks: undefined,
      });
      return { ok: true, channel, ts };
    }
    const stream = this.streams.get(String(args.ts));
    if (stream === undefined || stream.channel !== channel) {
      return { ok: false, error: 'message_not_found' };
    }
    if (stream.stoppedByUser && method === 'chat.appendStream') {
      return { ok: false, error: 'stopped_by_user' };
    }
    if (stream.stopped) return { ok: false, error: 'message_not_in_streaming_state' };
    if (method === 'chat.stopStream') {
      const blocks = args.blocks;
      if (
        blocks !== undefined &&
        (!Array.isArray(blocks) || blocks.length > fakeStreamLimits.blocksAtStop)
      ) {
        return { ok: false, error: 'invalid_blocks' };
      }
      const status = this.sessions.stopStatus(channel, stream.threadTs, args.session_status);
      if (status !== undefined) return { ok: false, error: status };
      stream.stopped = true;
      stream.blocks = blocks as unknown[] | undefined;
    }
    stream.chunks.push(...sent);
    return { ok: true, channel, ts: stream.ts };
  }

  /**
   * The person presses Stop in the thread: Slack stops its streaming messages itself (appends then
   * answer `stopped_by_user`, a stop `message_not_in_streaming_state`) and sends
   * `agent_session_stopped` naming them; returns their ts, the event's `streaming_message_ts`.
   */
  pressStop(channel: string, threadTs: string): string[] {
    const stopped: string[] = [];
    for (const stream of this.streams.values()) {
      if (stream.channel !== channel || stream.threadTs !== threadTs || stream.stopped) continue;
      stream.stopped = true;
      stream.stoppedByUser = true;
      stopped.push(stream.ts);
    }
    return stopped;
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
      case 'oauth.v2.access':
        return this.oauth.access(args);
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
            // Only asked for: `include_locale` (https://api.slack.com/methods/users.info).
            ...(String(args.include_locale) === 'true'
              ? { locale: this.locales.get(user) ?? 'en-US' }
              : {}),
          },
        };
      }
      case 'chat.postMessage': {
        this.#ts += 1;
        const ts = `${this.#ts}.000100`;
        return {
          ok: true,
          // A post to a person lands in the app's DM with them, which the answer names.
          channel: dmOf(String(args.channel)),
          ts,
          message: { text: args.text, ts, bot_id: botId },
        };
      }
      case 'chat.update': {
        const error = this.updateErrors.get(String(args.ts));
        if (error !== undefined) return { ok: false, error };
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      }
      case 'pins.add': {
        if (this.pinError !== undefined) return { ok: false, error: this.pinError };
        const channel = String(args.channel);
        const pinned = this.pins.get(channel) ?? new Set<string>();
        if (pinned.has(String(args.timestamp))) return { ok: false, error: 'already_pinned' };
        if (pinned.size >= maxPins) return { ok: false, error: 'too_many_pins' };
        pinned.add(String(args.timestamp));
        this.pins.set(channel, pinned);
        return { ok: true };
      }
      case 'pins.remove': {
        const pinned = this.pins.get(String(args.channel));
        if (pinned?.delete(String(args.timestamp)) !== true) return { ok: false, error: 'no_pin' };
        return { ok: true };
      }
      case 'chat.startStream':
      case 'chat.appendStream':
      case 'chat.stopStream':
        return this.#stream(method, args);
      case 'assistant.threads.setStatus':
      case 'assistant.threads.setTitle':
      case 'assistant.threads.setSuggestedPrompts':
        return assistantThreadsAnswer(method, args);
      case 'agents.sessions.setStatus':
      case 'agents.sessions.rename':
        return this.sessions.answer(method, args);
      case 'views.publish':
      case 'views.open':
        return { ok: true, view: { id: 'V0VIEW0001', ...(args.view as object) } };
      case 'conversations.open':
        return { ok: true, channel: { id: dmOf(String(args.users)) } };
      case 'files.getUploadURLExternal': {
        this.#files += 1;
        const fileId = `F0FILE${String(this.#files).padStart(4, '0')}`;
        const asked = this.calls.findLast((call) => call.method === method);
        if (asked !== undefined) this.#fileIds.set(asked, fileId);
        return { ok: true, upload_url: `${this.uploadUrl}${fileId}`, file_id: fileId };
      }
      case 'functions.completeSuccess':
      case 'functions.completeError':
        return this.#endExecution(method, args);
      case 'files.completeUploadExternal':
        return { ok: true, files: args.files };
      case 'conversations.canvases.create':
      case 'canvases.create':
      case 'canvases.edit':
        return this.#canvasAnswer(method, args);
      case 'conversations.info': {
        // A DM, or a public channel with the app in it; its canvases are added by #withCanvases.
        const id = String(args.channel);
        return id.startsWith('D')
          ? { ok: true, channel: { id, is_im: true } }
          : { ok: true, channel: { id, is_channel: true, is_private: false, is_member: true } };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }
}

/** The app's DM with a person (`U…` or `W…`), as the fake names it; other ids as they are. */
export function dmOf(channel: string): string {
  return /^[UW]/.test(channel) ? `D${channel.slice(1)}` : channel;
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

const newBlockTypes: ReadonlySet<string> = new Set(['data_table', 'data_visualization']);

/** The first `data_table` or `data_visualization` block and its index, if any. */
function newBlockAt(blocks: unknown): { type: string; at: number } | undefined {
  if (!Array.isArray(blocks)) return undefined;
  const at = blocks.findIndex((block: { type?: unknown }) => newBlockTypes.has(String(block.type)));
  return at === -1 ? undefined : { type: String((blocks[at] as { type: unknown }).type), at };
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
