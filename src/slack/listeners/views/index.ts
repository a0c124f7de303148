import type { App, ViewSubmitAction } from '@slack/bolt';
import { callbackIds } from '../../../render/ids.ts';
import type { SlackDeps } from '../../deps.ts';
import { lookupModalSubmit } from './lookup-modal.ts';

/** The lookup modal's submission. */
export function register(app: App, deps: SlackDeps): void {
  app.view<ViewSubmitAction>(callbackIds.lookupModal, lookupModalSubmit(deps));
}
