import type { App, BlockButtonAction } from '@slack/bolt';
import { digestActionIds } from '../../../render/digest-ids.ts';
import { actionIds } from '../../../render/ids.ts';
import type { SlackDeps } from '../../deps.ts';
import { digestButton } from './digest-buttons.ts';
import { digestEditButton } from './digest-edit.ts';
import { openLookupModal } from './open-lookup-modal.ts';
import { shareAnswer } from './share.ts';

/** Buttons: share an answer, open the lookup modal, and the five digest buttons. */
export function register(app: App, deps: SlackDeps): void {
  app.action<BlockButtonAction>(actionIds.shareAnswer, shareAnswer(deps));
  app.action<BlockButtonAction>(actionIds.openLookup, openLookupModal(deps));
  app.action<BlockButtonAction>(digestActionIds.runNow, digestButton(deps, 'run'));
  app.action<BlockButtonAction>(digestActionIds.pause, digestButton(deps, 'pause'));
  app.action<BlockButtonAction>(digestActionIds.resume, digestButton(deps, 'resume'));
  app.action<BlockButtonAction>(digestActionIds.remove, digestButton(deps, 'remove'));
  app.action<BlockButtonAction>(digestActionIds.edit, digestEditButton(deps));
}
