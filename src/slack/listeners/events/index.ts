import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { appHomeOpened } from './app-home-opened.ts';
import { appUninstalled, tokensRevoked } from './digest-lifecycle.ts';
import { appMention, directMessage } from './messages.ts';

/** The Home tab opening, DMs to the bot and mentions of it, and the app leaving a workspace. */
export function register(app: App, deps: SlackDeps): void {
  app.event('app_home_opened', appHomeOpened(deps));
  app.event('app_uninstalled', appUninstalled(deps));
  app.event('tokens_revoked', tokensRevoked(deps));
  app.event('message', directMessage(deps));
  app.event('app_mention', appMention(deps));
}
