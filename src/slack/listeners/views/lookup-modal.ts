import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { isParseError } from '../../../flows/lookup/index.ts';
import { utcFallbackNote } from '../../../render/lookups/status.ts';
import { lookupTextFromModal, modalErrors } from '../../../render/management/home.ts';
import { deliverLookup } from '../../delivery/lookup-delivery.ts';
import type { SlackDeps } from '../../deps.ts';

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
    const parsed = deps.flow.parse(text, zone.zone, false, zone.locale);
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
        { teamId: body.team?.id ?? body.user.team_id, channel: body.user.id },
        parsed,
        deps.flow.pending(parsed, note),
        note,
      );
    } catch (error) {
      deps.logger.error({ err: error }, 'could not deliver a lookup from the modal');
    }
  };
}
