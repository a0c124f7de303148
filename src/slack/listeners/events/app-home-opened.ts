import type {
  AllMiddlewareArgs,
  App,
  BlockButtonAction,
  SlackActionMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { isParseError } from '../../../flows/lookup.ts';
import {
  lookupTextFromModal,
  modalErrors,
  renderHome,
  renderLookupModal,
  renderLookupModalUnavailable,
} from '../../../render/home.ts';
import { actionIds, callbackIds } from '../../../render/ids.ts';
import { utcFallbackNote } from '../../../render/status.ts';
import type { HomeViewer, SlackDeps } from '../../deps.ts';
import { requestTeamId } from '../../support/team-guard.ts';
import { slackRetryAfterMs } from '../../web-api/client.ts';
import { deliverLookup, postInConversation } from './messages.ts';

/**
 * Publishes a person's Home tab: what the bot does, examples, the Look up button, then the sections
 * other modules registered (each failing alone without hiding the rest). Called when the tab opens
 * and again after anything on it changes.
 */
export async function publishHome(
  deps: SlackDeps,
  client: WebClient,
  viewer: HomeViewer,
): Promise<void> {
  const sections: KnownBlock[] = [];
  for (const section of deps.extensions.homeSections) {
    try {
      sections.push(...(await section(viewer, client)));
    } catch (error) {
      deps.logger.error({ err: error }, 'a Home tab section failed; publishing without it');
    }
  }
  await client.views.publish({ user_id: viewer.userId, view: renderHome({ sections }) });
}

export function appHomeOpened(deps: SlackDeps) {
  return async ({
    event,
    body,
    context,
    client,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab !== 'home') return;
    const teamId = requestTeamId(body) ?? context.teamId;
    try {
      await publishHome(deps, client, { userId: event.user, teamId });
    } catch (error) {
      deps.logger.error({ err: error }, 'could not publish the Home tab');
    }
  };
}

/**
 * "Look up" on the Home tab: opens the modal, its zone prefilled with the person's Slack zone. The
 * trigger lasts 3 seconds, so a rate-limited views.open cannot wait and retry: the person gets a DM
 * saying to press again, instead of a button that seems to do nothing.
 */
export function openLookupModal(deps: SlackDeps) {
  return async ({
    ack,
    body,
    client,
  }: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const zone = await deps.zones.zoneOf(client, body.user.id);
    try {
      await client.views.open({
        trigger_id: body.trigger_id,
        view: renderLookupModal(zone.fallback ? {} : { zone: zone.zone }),
      });
    } catch (error) {
      const retryAfterMs = slackRetryAfterMs(error);
      if (retryAfterMs === undefined) {
        deps.logger.error({ err: error }, 'could not open the lookup modal');
        return;
      }
      deps.logger.warn({ retryAfterMs }, 'Slack rate limited views.open; telling the person');
      try {
        await postInConversation(client, { channel: body.user.id }, renderLookupModalUnavailable());
      } catch (notice) {
        deps.logger.warn({ err: notice }, 'could not say that the lookup modal did not open');
      }
    }
  };
}

/**
 * The modal's submission, read as one line of the command grammar. A parse error stays in the
 * modal under the input it concerns; a valid lookup closes it and the answer arrives as a DM.
 */
export function lookupModalSubmit(deps: SlackDeps) {
  return async ({
    ack,
    body,
    view,
    client,
  }: SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs): Promise<void> => {
    const text = lookupTextFromModal(view.state.values);
    const zone = await deps.zones.zoneOf(client, body.user.id);
    const parsed = deps.flow.parse(text, zone.zone);
    if (isParseError(parsed)) {
      await ack({ response_action: 'errors', errors: modalErrors(parsed) });
      return;
    }
    await ack();
    // Without a zone typed in the modal and no readable profile zone, UTC was used: say so.
    const note = zone.fallback && !/\bin\s+\S+/.test(text) ? utcFallbackNote : undefined;
    try {
      await deliverLookup(
        deps,
        client,
        { channel: body.user.id },
        parsed,
        deps.flow.pending(parsed, note),
        note,
      );
    } catch (error) {
      deps.logger.error({ err: error }, 'could not deliver a lookup from the modal');
    }
  };
}

export function register(app: App, deps: SlackDeps): void {
  app.event('app_home_opened', appHomeOpened(deps));
  app.action<BlockButtonAction>(actionIds.openLookup, openLookupModal(deps));
  app.view<ViewSubmitAction>(callbackIds.lookupModal, lookupModalSubmit(deps));
}
