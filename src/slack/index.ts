import type { App } from '@slack/bolt';
import type { SlackDeps } from './deps.ts';
import { register as registerShare } from './listeners/actions/share.ts';
import { register as registerCommands } from './listeners/commands/influencers.ts';
import { register as registerHome } from './listeners/events/app-home-opened.ts';
import { register as registerMessages } from './listeners/events/messages.ts';
import { teamGuard } from './support/team-guard.ts';

export type { HomeSection, SlackDeps, SlackExtensions, Subcommand } from './deps.ts';

/** A module of the Slack surface: adds its listeners, and may use the extension seams. */
export type SlackModule = (app: App, deps: SlackDeps) => void;

/** The lookup surface: slash command, DMs, mentions, share button, App Home and its modal. */
export const lookupModules: readonly SlackModule[] = [
  registerCommands,
  registerMessages,
  registerShare,
  registerHome,
];

/**
 * Registers the workspace allow-list first (so a refused request reaches no handler), then every
 * module in order. Later features pass their own modules after these.
 */
export function register(
  app: App,
  deps: SlackDeps,
  allowedTeamIds: readonly string[],
  modules: readonly SlackModule[] = lookupModules,
): void {
  app.use(teamGuard(allowedTeamIds, { logger: deps.logger, seenEvents: deps.seenEvents }));
  for (const module of modules) module(app, deps);
}
