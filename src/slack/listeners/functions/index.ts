import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import { topInfluencersStep } from '../../../flows/workflow-step.ts';
import { functionIds } from '../../../render/ids.ts';
import type { SlackDeps } from '../../deps.ts';

/**
 * A workflow has no person whose profile zone to read: windows are read in UTC unless their text
 * names a zone (`last week in Europe/London`).
 */
const stepZone = 'UTC';

/**
 * The `top_influencers` step of a workflow: Bolt acknowledges the event, then the run always ends
 * with complete() and its three outputs, or fail() with the parser's message or a lookup's words
 * for a service failure, within the lookup deadline. Slack's redeliveries of one execution are run
 * once; a shutdown ends a run early with the stopped-by-a-restart words rather than leaving it
 * open.
 */
export function topInfluencersFunction(deps: SlackDeps) {
  return async ({
    body,
    inputs,
    complete,
    fail,
  }: SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs): Promise<void> => {
    if (!(await deps.seen.firstEvent(body.event_id))) return;
    const outcome = await deps.inFlight.run((signal) =>
      topInfluencersStep(deps.flow, inputs, { zone: stepZone, signal }),
    );
    try {
      if (outcome.ok) await complete({ outputs: outcome.outputs });
      else await fail({ error: outcome.error });
    } catch (error) {
      deps.logger.error(
        { err: error, ok: outcome.ok },
        'could not finish a run of the top_influencers workflow step',
      );
    }
  };
}

/** Workflow Builder custom steps this app provides (manifest `functions`). */
export function register(app: App, deps: SlackDeps): void {
  app.function(functionIds.topInfluencers, topInfluencersFunction(deps));
}
