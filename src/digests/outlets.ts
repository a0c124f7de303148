/**
 * The jobs' way out, asked for by workspace: where digests and conferences post, whom they tell,
 * where canvases go. Slack gives one per workspace (the bot's Web API clients for that workspace),
 * the console one for its single workspace (its screen and canvas files), tests a recording one.
 * Nothing in the engine holds a poster or a writer of its own: it asks for the workspace's each
 * time, so a second workspace is another answer of `forTeam`, not another code path.
 */
import type { CanvasWriter } from '../model/canvas.ts';
import type { ConferencePoster } from './conferences/outlet.ts';
import type { DigestPoster } from './delivery.ts';
import { everyTeam, type PerTeam, partOf } from './per-team.ts';

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

/**
 * The jobs' outlets, each part asked for by workspace; a part left out is a feature this surface
 * does not offer (no canvases, no conferences), whatever the workspace.
 */
export interface Outlets {
  readonly posters: PerTeam<DigestPoster>;
  readonly names?: PerTeam<(userId: string) => Promise<string | undefined>>;
  readonly canvasWriters?: PerTeam<CanvasWriter>;
  readonly conferencePosters?: PerTeam<ConferencePoster>;
}

/** Every workspace goes out the same way: one bot token, the console, a test's recorder. */
export function sameOutletForEveryTeam(outlet: Outlet): Outlets {
  return {
    posters: everyTeam(outlet.poster),
    ...(outlet.displayName === undefined ? {} : { names: everyTeam(outlet.displayName) }),
    ...(outlet.canvasWriter === undefined ? {} : { canvasWriters: everyTeam(outlet.canvasWriter) }),
    ...(outlet.conferencePoster === undefined
      ? {}
      : { conferencePosters: everyTeam(outlet.conferencePoster) }),
  };
}

/** Each workspace its own outlet, every part offered. */
export function outletsByTeam(all: PerTeam<Required<Outlet>>): Outlets {
  return {
    posters: partOf(all, 'poster'),
    names: partOf(all, 'displayName'),
    canvasWriters: partOf(all, 'canvasWriter'),
    conferencePosters: partOf(all, 'conferencePoster'),
  };
}
