/**
 * What the end-to-end Slack tests share: one fixed clock for the app and the sandbox, the zone the
 * fake Slack gives people, the request a text reads as then, and the message that ends a lookup.
 */
import type { LookupRequest } from '../../src/model/lookup.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import type { SlackCall } from './fake-slack.ts';
import type { Harness } from './harness.ts';

export const fixedNow = new Date('2026-11-21T15:00:00Z');
export const now = () => fixedNow;
/** users.info's zone for everyone in the fake Slack. */
export const userZone = 'America/New_York';

/** The request `text` reads as at {@link fixedNow} in `zone`; throws on a parse error. */
export function request(text: string, zone = userZone): LookupRequest {
  const parsed = parseLookup(text, { now: fixedNow, zone });
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

/** The message that ends a lookup: the first post that is not the still-running update. */
export function finalResponse(h: Harness, url: string): Promise<SlackCall> {
  return h.slack.waitFor(
    (call) =>
      call.kind === 'response_url' &&
      call.url === url &&
      !/^Still looking up/.test(String(call.args.text)),
    15_000,
  );
}
