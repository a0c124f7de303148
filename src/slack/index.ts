import type { App } from '@slack/bolt';
import type { SlackDeps } from './deps.ts';
import { register as registerActions } from './listeners/actions/index.ts';
import { register as registerAgent } from './listeners/agent/index.ts';
import { register as registerAssistant } from './listeners/assistant/index.ts';
import { register as registerCommands } from './listeners/commands/index.ts';
import { register as registerEvents } from './listeners/events/index.ts';
import { register as registerFunctions } from './listeners/functions/index.ts';
import { register as registerShortcuts } from './listeners/shortcuts/index.ts';
import { register as registerViews } from './listeners/views/index.ts';
import { teamGuard } from './middleware/team-guard.ts';
import { workspaceActivity } from './middleware/workspace-activity.ts';

export type { SlackDeps } from './deps.ts';

/**
 * Registers the workspace allow-list first (so a refused request reaches no handler), then what
 * every admitted request says (the app works in its workspace), then each listener folder: the
 * one way a Slack handler is added.
 */
export function register(app: App, deps: SlackDeps, allowedTeamIds: readonly string[]): void {
  app.use(teamGuard(allowedTeamIds, { logger: deps.logger, seen: deps.seen }));
  app.use(workspaceActivity(deps));
  registerAgent(app, deps);
  registerAssistant(app, deps);
  registerCommands(app, deps);
  registerEvents(app, deps);
  registerActions(app, deps);
  registerViews(app, deps);
  registerShortcuts(app, deps);
  registerFunctions(app, deps);
}
