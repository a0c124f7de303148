/**
 * A canvas the app keeps in a channel as its standing report, rewritten whole at each update. Plain
 * data shared by whatever keeps one (a digest, a leaderboard), the store and the Slack writer;
 * nothing here knows whose report it is.
 */

/**
 * `channel`: the channel's own canvas, created by the app (`conversations.canvases.create`);
 * `standalone`: a canvas of the app's own tabbed in the channel (`canvases.create` with
 * `channel_id`), made when the channel's canvas belongs to someone else.
 */
export type CanvasKind = 'channel' | 'standalone';

export const canvasKinds: readonly CanvasKind[] = ['channel', 'standalone'];

/** A canvas the app created, so the only kind it ever edits. */
export interface CanvasRef {
  readonly id: string;
  readonly kind: CanvasKind;
}

/**
 * Why a canvas could not be written. Each is put into words once, where it is shown.
 * - `channel_canvas_taken`: the channel has a canvas of someone else's and the workspace's plan
 *   refuses the app one of its own (`free_team_canvas_tab_already_exists`: one canvas tab per
 *   channel on free plans; `free_teams_cannot_create_standalone_canvases`);
 * - `canvases_unavailable`: the workspace's plan has no channel canvases
 *   (`team_tier_cannot_create_channel_canvases`, `free_teams_cannot_create_non_tabbed_canvases`);
 * - `edits_unavailable`: the plan does not let the app edit the canvas it made
 *   (`free_teams_cannot_edit_standalone_canvases`);
 * - `creation_failed`: Slack could not make the channel's canvas or its tab
 *   (`channel_canvas_creation_failed`, `canvas_tab_creation_failed`);
 * - `canvas_locked`: someone locked the canvas against edits (`canvas_editing_locked`);
 * - `canvas_too_large`: the report is larger than Slack lets a canvas be (`canvas_too_large`);
 * - `editing_failed`: Slack could not apply the edit (`canvas_editing_failed`,
 *   `canvas_creation_failed`);
 * - `not_allowed`: Slack refused the app this canvas or channel (`not_allowed`,
 *   `restricted_action`, `not_in_channel`, `channel_not_found`, `is_archived`...);
 * - `missing_scope`: the app was installed before it asked for `canvases:write`;
 * - `creation_unconfirmed`: the answer to the creation of the channel's canvas was lost (a timeout,
 *   a dropped connection), in a channel that had no canvas just before: Slack may have made it,
 *   so the next write looks for it (`CanvasWriteOptions.unconfirmed`) before making another;
 * - `slack_failed`: anything else (rate limits beyond the client's retries, Slack unreachable).
 */
export type CanvasProblem =
  | 'channel_canvas_taken'
  | 'canvases_unavailable'
  | 'edits_unavailable'
  | 'creation_failed'
  | 'canvas_locked'
  | 'canvas_too_large'
  | 'editing_failed'
  | 'not_allowed'
  | 'missing_scope'
  | 'creation_unconfirmed'
  | 'slack_failed';

export const canvasProblems: readonly CanvasProblem[] = [
  'channel_canvas_taken',
  'canvases_unavailable',
  'edits_unavailable',
  'creation_failed',
  'canvas_locked',
  'canvas_too_large',
  'editing_failed',
  'not_allowed',
  'missing_scope',
  'creation_unconfirmed',
  'slack_failed',
];

/**
 * Refusals that come from the workspace's plan, which the next run would meet again: after one, the
 * canvas is not written again before {@link canvasPlanRefusalRetryMs}, instead of spending two
 * of Slack's Tier-2 creation calls (or an edit) at every run.
 */
export const planCanvasProblems: ReadonlySet<CanvasProblem> = new Set([
  'channel_canvas_taken',
  'canvases_unavailable',
  'edits_unavailable',
]);

/** How long after a plan's refusal the canvas is tried again (a plan may change, rarely). */
export const canvasPlanRefusalRetryMs = 7 * 24 * 60 * 60_000;

/** What a canvas holds: its title (the canvas shows it as the heading) and its markdown. */
export interface CanvasDocument {
  readonly title: string;
  readonly markdown: string;
}

/** How a write ended: the canvas written (perhaps newly created), or why not. */
export type CanvasWrite =
  | { readonly kind: 'written'; readonly canvas: CanvasRef }
  | { readonly kind: 'failed'; readonly problem: CanvasProblem };

export interface CanvasWriteOptions {
  /**
   * The last write ended in `creation_unconfirmed`: a canvas the channel has now is the one that
   * creation made, and is written instead of making a second.
   */
  readonly unconfirmed?: boolean;
}

/**
 * Writes a report canvas in a channel. With `canvas` (one the app created before) it replaces that
 * canvas's whole document; without it, or when that canvas is gone, it creates one. It never edits
 * a canvas the app did not create, and never throws: every failure is a `CanvasProblem`.
 */
export interface CanvasWriter {
  write(
    channelId: string,
    canvas: CanvasRef | undefined,
    document: CanvasDocument,
    options?: CanvasWriteOptions,
  ): Promise<CanvasWrite>;
}

/** What the writer is told of the last write: whether its creation went unconfirmed. */
export function canvasWriteOptions(state: Pick<DigestCanvas, 'problem'>): CanvasWriteOptions {
  return state.problem === 'creation_unconfirmed' ? { unconfirmed: true } : {};
}

/**
 * The canvas a digest or a conference keeps: whether it keeps one, the one it keeps, and what
 * went wrong last.
 */
export interface DigestCanvas {
  readonly enabled: boolean;
  readonly canvas?: CanvasRef;
  /** The last write's problem; absent once a write succeeds. */
  readonly problem?: CanvasProblem;
  /** The problems its creator was told about, each once. */
  readonly told: readonly CanvasProblem[];
  /**
   * After a refusal of the workspace's plan ({@link planCanvasProblems}): no write is tried
   * before this instant.
   */
  readonly heldUntil?: Date;
}
