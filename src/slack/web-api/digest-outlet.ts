import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import { blocksFallbackPoster } from './blocks-fallback.ts';
import { backgroundWebClient, SlackDigestPoster } from './poster.ts';
import { displayNames, UserDirectory } from './user-directory.ts';

/**
 * Where a scheduler tick (`digests run-due`) posts: the background Web API client the app's timer
 * uses, built from the bot token alone.
 */
export function slackDigestOutlet(
  slack: { readonly botToken: { reveal(): string }; readonly apiUrl?: string },
  logger: Logger,
) {
  const client = backgroundWebClient({
    token: slack.botToken.reveal(),
    ...defined({ apiUrl: slack.apiUrl }),
  });
  const posterLogger = logger.child({ component: 'digest-poster' });
  return {
    poster: blocksFallbackPoster(
      new SlackDigestPoster({ client, logger: posterLogger }),
      posterLogger,
    ),
    displayName: displayNames(new UserDirectory(), client),
  };
}
