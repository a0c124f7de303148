import type { App, BlockButtonAction } from '@slack/bolt';
import { actionIds, digestActionIds, digestListPageIds } from '../../../render/ids.ts';
import type { SlackDeps } from '../../deps.ts';
import { answerButton, exportButton } from './answer-buttons.ts';
import { digestButton, digestListPageButton, postUnconfirmedButton } from './digest-buttons.ts';
import { digestEditButton } from './digest-edit.ts';
import { openLookupModal } from './open-lookup-modal.ts';
import { shareAnswer } from './share.ts';

/** Every button of a question asked back: `answer_choice_1`, `answer_choice_2`… */
const choiceAction = new RegExp(`^${actionIds.answerChoice}_\\d+$`);

/**
 * Buttons: share an answer, change it (compare, table, chart) or export it, open the lookup modal,
 * the five digest buttons, "Post it now" of an unconfirmed digest slot and the digest list's pages.
 */
export function register(app: App, deps: SlackDeps): void {
  app.action<BlockButtonAction>(actionIds.shareAnswer, shareAnswer(deps));
  app.action<BlockButtonAction>(actionIds.answerCompare, answerButton(deps, 'compare'));
  app.action<BlockButtonAction>(actionIds.answerTable, answerButton(deps, 'table'));
  app.action<BlockButtonAction>(actionIds.answerChart, answerButton(deps, 'chart'));
  app.action<BlockButtonAction>(actionIds.answerExport, exportButton(deps));
  app.action<BlockButtonAction>(actionIds.answerAddDatabase, answerButton(deps, 'asked'));
  app.action<BlockButtonAction>(choiceAction, answerButton(deps, 'asked'));
  app.action<BlockButtonAction>(actionIds.openLookup, openLookupModal(deps));
  app.action<BlockButtonAction>(digestActionIds.runNow, digestButton(deps, 'run'));
  app.action<BlockButtonAction>(digestActionIds.pause, digestButton(deps, 'pause'));
  app.action<BlockButtonAction>(digestActionIds.resume, digestButton(deps, 'resume'));
  app.action<BlockButtonAction>(digestActionIds.remove, digestButton(deps, 'remove'));
  app.action<BlockButtonAction>(digestActionIds.edit, digestEditButton(deps));
  app.action<BlockButtonAction>(digestActionIds.postUnconfirmed, postUnconfirmedButton(deps));
  app.action<BlockButtonAction>(digestListPageIds.previous, digestListPageButton(deps));
  app.action<BlockButtonAction>(digestListPageIds.next, digestListPageButton(deps));
}
