import type { App } from '@slack/bolt';
import { slashCommand } from '../../../model/commands.ts';
import type { SlackDeps } from '../../deps.ts';
import { influencersCommand } from './influencers.ts';

/** `/influencers`: lookups and, after `digest`, the digest commands. */
export function register(app: App, deps: SlackDeps): void {
  app.command(slashCommand, influencersCommand(deps));
}
