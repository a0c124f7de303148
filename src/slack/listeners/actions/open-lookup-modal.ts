import type { AllMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import {
  renderLookupModal,
  renderLookupModalUnavailable,
} from '../../../render/management/home.ts';
import type { SlackDeps } from '../../deps.ts';
import { slackFailure, slackRetryAfterMs } from '../../web-api/client.ts';
import { postInConversation } from '../../web-api/conversation.ts';

/** What a button or a global shortcut that opens the modal carries: who, and the trigger. */
interface LookupTrigger {
  readonly ack: () => Promise<void>;
  readonly body: { readonly trigger_id: string; readonly user: { readonly id: string } };
  readonly client: WebClient;
}

/**
 * "Look up" on the Home tab and the "Look up influencers" global shortcut: opens the modal, its
 * zone prefilled with the person's Slack zone. The trigger lasts 3 seconds, so a rate-limited
 * views.open cannot wait and retry: the person gets a DM saying to press again, instead of a
 * button that seems to do nothing.
 */
export function openLookupModal(deps: SlackDeps) {
  return async ({
    ack,
    body,
    client,
  }: LookupTrigger & Pick<AllMiddlewareArgs, 'client'>): Promise<void> => {
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
        deps.logger.error(
          { ...slackFailure(error, 'views.open') },
          'could not open the lookup modal',
        );
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
