/**
 * A report canvas in a channel, written through Slack's canvas API for whoever keeps one (a
 * digest, a leaderboard): nothing here knows whose report it is.
 *
 * - Created as the channel's canvas (`conversations.canvases.create`). When the channel has one
 *   already (`channel_canvas_already_exists`), it belongs to someone else and is never touched: the
 *   app creates a canvas of its own tabbed in the channel (`canvases.create` with `channel_id`),
 *   which free plans refuse, allowing one canvas tab per channel
 *   (`free_team_canvas_tab_already_exists`).
 * - Rewritten with one `canvases.edit` whose single `replace` operation, without `section_id`,
 *   replaces the whole document: Slack takes one operation per call, and tables cannot be removed
 *   section by section. Only canvases the app created are ever edited (the caller passes back the
 *   reference a write returned); one deleted since (`canvas_not_found`) is created again.
 * - Creation is not idempotent, so it goes through a client that never retries: a timeout after
 *   Slack created the canvas must not create a second one. An edit replaces the same document
 *   however often it is sent, so it keeps the background client's retries.
 * - Before creating, `conversations.info` says whether the channel has a canvas (its
 *   `properties.canvas`, or a canvas among its `properties.tabs`); one there is someone else's,
 *   and the app tabs its own beside it without asking for the channel's. When the answer to the
 *   channel canvas's creation is lost (a timeout, a dropped connection, `internal_error`), a
 *   canvas the channel has right after is the one it made, since it had none just before. When
 *   Slack does not say so yet, the write ends `creation_unconfirmed`, and the next write
 *   (`unconfirmed`) takes the channel's canvas it finds then for that one, and edits it.
 */
import type { WebClient } from '@slack/web-api';
import { type Logger, silentLogger } from '../../logger.ts';
import type {
  CanvasDocument,
  CanvasProblem,
  CanvasRef,
  CanvasWrite,
  CanvasWriteOptions,
  CanvasWriter,
} from '../../model/canvas.ts';
import { slackErrorString, slackFailure } from './client.ts';

/** Slack's error strings for a canvas, and the problem each is. */
const canvasProblemsBySlackError: Readonly<Record<string, CanvasProblem>> = {
  free_team_canvas_tab_already_exists: 'channel_canvas_taken',
  free_teams_cannot_create_standalone_canvases: 'channel_canvas_taken',
  team_tier_cannot_create_channel_canvases: 'canvases_unavailable',
  free_teams_cannot_create_non_tabbed_canvases: 'canvases_unavailable',
  free_teams_cannot_edit_standalone_canvases: 'edits_unavailable',
  channel_canvas_creation_failed: 'creation_failed',
  canvas_tab_creation_failed: 'creation_failed',
  canvas_editing_locked: 'canvas_locked',
  canvas_too_large: 'canvas_too_large',
  canvas_editing_failed: 'editing_failed',
  canvas_creation_failed: 'editing_failed',
  canvas_disabled_user_team: 'canvases_unavailable',
  not_allowed: 'not_allowed',
  access_denied: 'not_allowed',
  restricted_action: 'not_allowed',
  not_in_channel: 'not_allowed',
  channel_not_found: 'not_allowed',
  is_archived: 'not_allowed',
  channel_is_archived: 'not_allowed',
  missing_scope: 'missing_scope',
};

/** A canvas the app made that is no longer there: it is created anew. */
const goneErrors = new Set(['canvas_not_found', 'file_not_found', 'file_deleted']);

/**
 * Failures after which Slack may have done the call: the answer never came (a timeout, a dropped
 * connection, an HTTP error), or Slack says some of it may have succeeded.
 */
const doneMaybeErrors = new Set(['internal_error', 'fatal_error']);
const lostAnswerCodes = new Set(['slack_webapi_request_error', 'slack_webapi_http_error']);

function answerLost(error: unknown): boolean {
  const code = (error as { readonly code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && lostAnswerCodes.has(code)) return true;
  return doneMaybeErrors.has(slackErrorString(error) ?? '');
}

interface ChannelProperties {
  readonly canvas?: { readonly file_id?: unknown };
  readonly tabs?: readonly { readonly type?: unknown; readonly data?: { file_id?: unknown } }[];
}

/**
 * The canvas a channel has, as conversations.info tells: its `properties.canvas`, else the one
 * canvas among its tabs (a free workspace lists its channel canvas only there); undefined for
 * none. Several tabbed canvases and no channel canvas: the first, which is someone's all the same.
 */
export function channelCanvasOf(channel: unknown): string | undefined {
  const properties = (channel as { properties?: ChannelProperties } | undefined)?.properties;
  const own = properties?.canvas?.file_id;
  if (typeof own === 'string' && own !== '') return own;
  const tab = properties?.tabs?.find(
    (entry) => entry.type === 'canvas' && typeof entry.data?.file_id === 'string',
  );
  return tab === undefined ? undefined : String(tab.data?.file_id);
}

/** What a Slack failure of a canvas call is: a problem, or a canvas gone. */
export function canvasProblemOf(error: unknown): CanvasProblem | 'gone' {
  const slackError = slackErrorString(error);
  if (slackError === undefined) return 'slack_failed';
  if (goneErrors.has(slackError)) return 'gone';
  return canvasProblemsBySlackError[slackError] ?? 'slack_failed';
}

export interface SlackCanvasWriterOptions {
  /** For `canvases.edit`, which may be retried. */
  readonly client: WebClient;
  /** For the two creation calls: a client that never retries (see above). */
  readonly createClient?: WebClient;
  readonly logger?: Logger;
}

export class SlackCanvasWriter implements CanvasWriter {
  readonly #client: WebClient;
  readonly #createClient: WebClient;
  readonly #logger: Logger;

  constructor(options: SlackCanvasWriterOptions) {
    this.#client = options.client;
    this.#createClient = options.createClient ?? options.client;
    this.#logger = options.logger ?? silentLogger;
  }

  async write(
    channelId: string,
    canvas: CanvasRef | undefined,
    document: CanvasDocument,
    options: CanvasWriteOptions = {},
  ): Promise<CanvasWrite> {
    if (canvas !== undefined) {
      const edited = await this.#edit(channelId, canvas, document);
      if (edited !== 'gone') return edited;
    }
    return this.#create(channelId, document, options.unconfirmed === true);
  }

  async #edit(
    channelId: string,
    canvas: CanvasRef,
    document: CanvasDocument,
  ): Promise<CanvasWrite | 'gone'> {
    try {
      await this.#client.canvases.edit({
        canvas_id: canvas.id,
        changes: [{ operation: 'replace', document_content: markdownOf(document) }],
      });
      return { kind: 'written', canvas };
    } catch (error) {
      const problem = this.#problem(error, 'canvases.edit', channelId);
      if (problem !== 'gone') return { kind: 'failed', problem };
      this.#logger.info({ channelId, canvasId: canvas.id }, 'the canvas is gone; creating it anew');
      return 'gone';
    }
  }

  async #create(
    channelId: string,
    document: CanvasDocument,
    unconfirmed: boolean,
  ): Promise<CanvasWrite> {
    const seen = await this.#channelCanvas(channelId);
    if (typeof seen === 'object') return seen;
    let existing = seen;
    if (existing !== undefined && unconfirmed) {
      // The channel had no canvas when the app asked for one and lost the answer: this is it.
      const mine: CanvasRef = { id: existing, kind: 'channel' };
      this.#logger.info({ channelId, canvasId: existing }, 'found the canvas its creation made');
      const edited = await this.#edit(channelId, mine, document);
      if (edited !== 'gone') return edited;
      existing = undefined;
    }
    if (existing === undefined) {
      try {
        const created = await this.#createClient.conversations.canvases.create({
          channel_id: channelId,
          title: document.title,
          document_content: markdownOf(document),
        });
        return written(created.canvas_id, 'channel');
      } catch (error) {
        if (answerLost(error)) {
          this.#problem(error, 'conversations.canvases.create', channelId);
          // Most often Slack made it before the answer was lost, and says so now.
          const made = await this.#channelCanvas(channelId);
          return typeof made === 'string'
            ? { kind: 'written', canvas: { id: made, kind: 'channel' } }
            : { kind: 'failed', problem: 'creation_unconfirmed' };
        }
        if (slackErrorString(error) !== 'channel_canvas_already_exists') {
          return this.#failed(error, 'conversations.canvases.create', channelId);
        }
      }
    }
    // The channel's canvas is someone else's: one of the app's own, tabbed in the channel.
    try {
      const created = await this.#createClient.canvases.create({
        title: document.title,
        channel_id: channelId,
        document_content: markdownOf(document),
      });
      return written(created.canvas_id, 'standalone');
    } catch (error) {
      return this.#failed(error, 'canvases.create', channelId);
    }
  }

  /** The channel's canvas as conversations.info tells it: its id, none, or why Slack did not say. */
  async #channelCanvas(channelId: string): Promise<string | undefined | CanvasWrite> {
    try {
      const info = await this.#client.conversations.info({ channel: channelId });
      return channelCanvasOf(info.channel);
    } catch (error) {
      return this.#failed(error, 'conversations.info', channelId);
    }
  }

  #failed(error: unknown, method: string, channelId: string): CanvasWrite {
    const problem = this.#problem(error, method, channelId);
    // A canvas just created cannot be gone: whatever says so is Slack failing.
    return { kind: 'failed', problem: problem === 'gone' ? 'slack_failed' : problem };
  }

  #problem(error: unknown, method: string, channelId: string): CanvasProblem | 'gone' {
    const problem = canvasProblemOf(error);
    this.#logger.warn({ ...slackFailure(error, method), channelId, problem }, 'canvas not written');
    return problem;
  }
}

function markdownOf(document: CanvasDocument) {
  return { type: 'markdown' as const, markdown: document.markdown };
}

function written(id: unknown, kind: CanvasRef['kind']): CanvasWrite {
  if (typeof id !== 'string' || id === '') return { kind: 'failed', problem: 'slack_failed' };
  return { kind: 'written', canvas: { id, kind } };
}
