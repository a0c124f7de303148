import type { App, GlobalShortcut } from '@slack/bolt';
import { shortcutIds } from '../../../render/ids.ts';
import type { SlackDeps } from '../../deps.ts';
import { openLookupModal } from '../actions/open-lookup-modal.ts';

/** "Look up influencers" in the shortcuts menu: the Home tab's lookup modal, from anywhere. */
export function register(app: App, deps: SlackDeps): void {
  app.shortcut<GlobalShortcut>(shortcutIds.lookup, openLookupModal(deps));
}
