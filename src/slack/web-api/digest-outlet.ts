import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import { blocksFallbackPoster } from './blocks-fallback.ts';
import { SlackConferencePoster } from './conference-poster.ts';
import { backgroundWebClient, SlackDigestPoster } from './poster.ts';
import { displayNames, UserDirectory } from './user-directory.ts';

export interface SlackDigestOutletOptions {
  /** Every Web API call goes through it; the global `fetch` when not given. */
  readonly fetch?: typeof fetch;
  /** users.info cache to share with the rest of the app (admin rights, names); else a new one. */
  readonly directory?: UserDirectory;
}

/**
 * Where digests post and how their creators are named: the background Web API client (retried,
 * unlike the interactive one), the poster with the blocks fallback, and the creators' display
 * names from one users.info cache, and where conferences post, edit and pin. The app's timer and `digests run-due` both take it from here,
 * so a digest posts the same way whichever of them runs it.
 */
export function slackDigestOutlet(
  slack: { readonly botToken: { reveal(): string }; readonly apiUrl?: string },
  logger: Logger,
  options: SlackDigestOutletOptions = {},
) {
  const posterLogger = logger.child({ component: 'digest-poster' });
  const client = backgroundWebClient({
    token: slack.botToken.reveal(),
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
    conferencePoster: new SlackConferencePoster({
      client,
      notifier: poster,
      logger: logger.child({ component: 'conference-poster' }),
    }),
  };
}
