import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { type StepOutcome, stepInputs, topInfluencersStep } from '../../../flows/workflow-step.ts';
import { genericErrorText } from '../../../render/errors.ts';
import { functionIds } from '../../../render/ids.ts';
import { stepOutputsRefusedText } from '../../../render/lookups/workflow-step.ts';
import type { SlackDeps } from '../../deps.ts';

/**
 * The zone the step reads its window in, as every other surface reads one: the Slack zone of the
 * person the workflow names (`person`, mapped to "Person who used this workflow"), else UTC,
 * unless the window names its own (`last week in Europe/London`).
 */
async function stepZone(deps: SlackDeps, client: WebClient, inputs: unknown): Promise<string> {
  const person = stepInputs(inputs).person;
  if (typeof person !== 'string' || !/^[UW][A-Z0-9]+$/.test(person)) return 'UTC';
  return (await deps.zones.zoneOf(client, person)).zone;
}

/**
 * The `top_influencers` step of a workflow: Bolt acknowledges the event, then the run always ends
 * with complete() and its outputs, or fail() with the parser's message, a lookup's words for
 * a service failure, or the generic words for anything unforeseen (inputs missing or `null` read
 * as none), within the lookup deadline; outputs Slack refuses end it with fail(). A run ends once: the first sighting of its
 * `function_execution_id`, shared by every instance, runs it, whatever event id Slack delivers it
 * under. A shutdown ends a run early with the stopped-by-a-restart words rather than leaving it
 * open.
 */
export function topInfluencersFunction(deps: SlackDeps) {
  return async ({
    event,
    inputs,
    client,
    complete,
    fail,
  }: SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs): Promise<void> => {
    const executionId = event.function_execution_id;
    if (!(await deps.seen.firstExecution(executionId))) return;
    const outcome = await deps.inFlight
      .run(async (signal) =>
        topInfluencersStep(deps.flow, inputs, {
          zone: await stepZone(deps, client, inputs),
          signal,
        }),
      )
      .catch((error: unknown): StepOutcome => {
        deps.logger.error({ err: error, executionId }, 'a run of the top_influencers step failed');
        return { ok: false, error: genericErrorText };
      });
    try {
      if (outcome.ok) await complete({ outputs: { ...outcome.outputs } });
      else await fail({ error: outcome.error });
      return;
    } catch (error) {
      deps.logger.error(
        { err: error, ok: outcome.ok, executionId },
        'could not finish a run of the top_influencers workflow step',
      );
    }
    // Slack refused the outputs (`parameter_validation_failed`): the run still ends, failed,
    // rather than showing as running in Workflow Builder until Slack gives up on it.
    if (!outcome.ok) return;
    try {
      await fail({ error: stepOutputsRefusedText });
    } catch (error) {
      deps.logger.error({ err: error, executionId }, 'could not fail a run of the workflow step');
    }
  };
}

/** Workflow Builder custom steps this app provides (manifest `functions`). */
export function register(app: App, deps: SlackDeps): void {
  app.function(functionIds.topInfluencers, topInfluencersFunction(deps));
}
