import type { App, ViewSubmitAction } from '@slack/bolt';
import { callbackIds, digestEditCallbackId } from '../../../render/ids.ts';
import type { SlackDeps } from '../../deps.ts';
import { digestEditSubmit } from './digest-edit-modal.ts';
import { lookupModalSubmit } from './lookup-modal.ts';

/** The lookup modal's and the digest Edit modal's submissions. */
export function register(app: App, deps: SlackDeps): void {
  app.view<ViewSubmitAction>(callbackIds.lookupModal, lookupModalSubmit(deps));
  app.view<ViewSubmitAction>(digestEditCallbackId, digestEditSubmit(deps));
}
