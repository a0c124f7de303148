/**
 * How the agent listener asks the store's agent records (see `AgentState`): within a short wait,
 * a failure or a slow store logged and answered "unknown", so that a database hiccup costs an
 * instance what the others know, never an answer.
 */

import type { Logger } from '../../../logger.ts';
import type { AgentState } from '../../../store/agent-state.ts';
import { timedOut, within } from '../../../time/within.ts';

/** How long a question or a Stop waits for the store before going on with what this instance knows. */
export const agentStateWaitMs = 1_000;

/** What the store did not tell: it keeps no agent records, is not open, failed or was too slow. */
export const unknown: unique symbol = Symbol('unknown');

/**
 * `call`'s answer on the records `state` gives, or {@link unknown}; `failure` is logged when the
 * store failed or was too slow (a slow call goes on unwaited).
 */
export async function askAgentState<T>(
  state: () => AgentState | undefined,
  logger: Logger,
  failure: string,
  call: (state: AgentState) => Promise<T>,
): Promise<T | typeof unknown> {
  try {
    const records = state();
    if (records === undefined) return unknown;
    const answer = await within(call(records), agentStateWaitMs);
    if (answer !== timedOut) return answer;
    logger.warn({ waitMs: agentStateWaitMs }, `${failure}: the store was too slow`);
  } catch (error) {
    logger.warn({ err: error }, failure);
  }
  return unknown;
}
