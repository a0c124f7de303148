/**
 * A signed request whose payload Bolt cannot read (`"event": null`, a button press or a shortcut
 * without its `user`, a workflow step run without its execution id) makes Bolt throw before any
 * listener or middleware runs, and its receiver answers 500 and logs two lines. Slack retries an
 * event answered 500, though no retry can read it better: such a request is answered with an empty
 * 200 instead, runs nothing, and is logged once.
 */
import type { HTTPReceiverOptions } from '@slack/bolt';
import type { Logger } from '../../logger.ts';

type ProcessEventErrorHandler = NonNullable<HTTPReceiverOptions['processEventErrorHandler']>;

/**
 * The receiver's `processEventErrorHandler`. Returning true marks the request acknowledged, so the
 * receiver's 3-second timer does not answer it again.
 */
export function unreadableRequestHandler(logger: Logger): ProcessEventErrorHandler {
  return async ({ error, response }) => {
    if (response.headersSent) {
      // Acked already: Bolt failed later, and nothing more can be said to Slack.
      logger.error({ err: error }, 'a Slack request failed after its ack');
      return false;
    }
    logger.warn({ err: error }, 'ignored a signed request whose payload Bolt could not read');
    response.writeHead(200);
    response.end();
    return true;
  };
}
