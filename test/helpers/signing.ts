import { createHmac } from 'node:crypto';

/** Signs a request body exactly as Slack does: `v0=` HMAC-SHA256 of `v0:<timestamp>:<body>`. */
export function signSlackRequest(
  secret: string,
  body: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const signature = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return {
    'x-slack-signature': `v0=${signature}`,
    'x-slack-request-timestamp': String(timestamp),
  };
}
