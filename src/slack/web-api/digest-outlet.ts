import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import { blocksFallbackPoster } from './blocks-fallback.ts';
import { SlackCanvasWriter } from './canvas.ts';
import type { TokenSource } from './client.ts';
import { SlackConferencePoster } from './conference-poster.ts';
import { backgroundWebClient, SlackDigestPoster, singleAttemptTwin } from './poster.ts';
import { displayNames, UserDirectory } from './user-directory.ts';

export interface SlackDigestOutletOptions {
  /** Every Web API call goes through it; the global `fetch` when not given. */
  readonly fetch?: typeof fetch;
  /** users.info cache to share with the rest of the app (admin rights, names); else a new one. */
  readonly directory?: UserDirectory;
}

/**
 * Where digests post, where their canvases are written, where conferences post, edit and pin, and
 * how creators are named: the background Web API client (retried, unlike the interactive one), the
 * poster with the blocks fallback, and display names from one users.info cache. The app's timer
 * and `digests run-due` both take it from here, so a digest posts the same way whichever of them
 * runs it.
 */
export function slackDigestOutlet(
  slack: { readonly token: string | TokenSource; readonly apiUrl?: string },
  logger: Logger,
  options: SlackDigestOutletOptions = {},
) {
  const posterLogger = logger.child({ component: 'digest-poster' });
  const client = backgroundWebClient({
    token: slack.token,
    logger: posterLogger,
    ...defined({ apiUrl: slack.apiUrl, fetch: options.fetch }),
  });
  const directory = options.directory ?? new UserDirectory();
  const poster = blocksFallbackPoster(
    new SlackDigestPoster({ client, logger: posterLogger, directory }),
    posterLogger,
  );
  return {
    poster,
    displayName: displayNames(directory, client),
    canvasWriter: new SlackCanvasWriter({
      client,
      createClient: singleAttemptTwin(client),
      logger: logger.child({ component: 'digest-canvas' }),
    }),
    conferencePoster: new SlackConferencePoster({
      client,
      notifier: poster,
      logger: logger.child({ component: 'conference-poster' }),
    }),
  };
}
