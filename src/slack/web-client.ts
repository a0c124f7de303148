import type { WebClientOptions } from '@slack/web-api';

/**
 * The Web API client's defaults suit background jobs: ten retries over about 30 minutes. Every call
 * here serves someone waiting in Slack, so a failing call should give up within seconds and let
 * the handler tell them, not hold their answer for half an hour.
 */
export const interactiveRetryConfig = {
  retries: 2,
  factor: 2,
  minTimeout: 250,
  maxTimeout: 1_000,
  randomize: true,
} as const;

/** Per-request timeout of a Web API call; Slack answers in well under a second. */
export const webApiTimeoutMs = 5_000;

export interface WebClientSettings {
  /** Slack traffic goes through it: tests and benchmarks inject a fake. */
  readonly fetch?: typeof fetch;
  /** Web API base URL (GovSlack, a proxy, tests). */
  readonly apiUrl?: string;
}

export function webClientOptions(settings: WebClientSettings): WebClientOptions {
  return {
    retryConfig: { ...interactiveRetryConfig },
    timeout: webApiTimeoutMs,
    ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
    ...(settings.apiUrl === undefined ? {} : { slackApiUrl: settings.apiUrl }),
  };
}
