/**
 * The jobs' way out, asked for by workspace: where digests and conferences post, whom they tell,
 * where canvases go. Slack gives one per workspace (the bot's Web API clients for that workspace),
 * the console one for its single workspace (its screen and canvas files), tests a recording one.
 */
import type { CanvasWriter } from '../model/canvas.ts';
import type { ConferencePoster } from './conferences/outlet.ts';
import type { DigestPoster } from './runner.ts';

/** One workspace's outlet. */
export interface Outlet {
  readonly poster: DigestPoster;
  /** The creator's name for the "created by …" line of posted digests. */
  readonly displayName?: (userId: string) => Promise<string | undefined>;
  /** Where digest and conference canvases are written; without it no canvas is kept. */
  readonly canvasWriter?: CanvasWriter;
  /** Where conferences post, edit and pin; without it no conference runs. */
  readonly conferencePoster?: ConferencePoster;
}

/** Hands out the outlet of a workspace; the only way the jobs reach Slack. */
export interface Outlets {
  forTeam(teamId: string): Outlet;
}

/** Every workspace goes out the same way: one bot token, the console, a test's recorder. */
export function sameOutletForEveryTeam(outlet: Outlet): Outlets {
  return { forTeam: () => outlet };
}
