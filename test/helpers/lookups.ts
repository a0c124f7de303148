/**
 * What the end-to-end Slack tests share: one fixed clock for the app and the sandbox, the zone the
 * fake Slack gives people, the request a text reads as then, the message that ends a lookup, and
 * the answer the app should give, rendered from the sandbox's own rankings.
 */

import { type Rankings, shownInMessage } from '../../src/flows/lookup/index.ts';
import type { LookupRequest } from '../../src/model/lookup.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { type AnswerOptions, renderAnswer } from '../../src/render/lookups/answer.ts';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { testCore } from './core.ts';
import type { SlackCall } from './fake-slack.ts';
import { type Harness, startHarness } from './harness.ts';

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

/** The sandbox's rankings for a request, asked by a client of the test's own. */
export async function rankings(h: Harness, asked: LookupRequest): Promise<Rankings> {
  const core = testCore({
    sandboxUrl: h.sandbox.url,
    lookup: { progressUpdateMs: 10_000, timeoutMs: 10_000 },
    now,
  });
  try {
    return await core.lookup.results(asked);
  } finally {
    await core.close(1_000);
  }
}

/** The answer the app renders for `asked` with these options, from the sandbox's rankings. */
export async function expectedAnswer(
  h: Harness,
  asked: LookupRequest,
  options: AnswerOptions,
): Promise<SlackMessage> {
  const { current, previous } = await rankings(h, asked);
  return renderAnswer(shownInMessage(asked), current, {
    ...options,
    actions: true,
    ...(previous === undefined ? {} : { previous }),
  });
}

/**
 * The app at {@link fixedNow} against a sandbox whose account reads #hcsm, #bcsm and #quiet, with
 * no response cache and a 10-second lookup deadline: the end-to-end Slack suites' setup.
 */
export function startLookupHarness(): Promise<Harness> {
  return startHarness({
    env: { RESPONSE_CACHE_TTL_MS: '0', LOOKUP_TIMEOUT_MS: '10000' },
    sandbox: lookupSandbox,
    overrides: { now },
  });
}

/** The lookup tests' sandbox: at {@link fixedNow}, its account reading #hcsm, #bcsm and #quiet. */
const lookupSandbox = {
  now,
  clients: [{ ...demoClient, access: ['#hcsm', '#bcsm', '#quiet'] }],
};

/** A sandbox on loopback as {@link startLookupHarness} has it, for apps that share one. */
export function startLookupSandbox(): Promise<Sandbox> {
  return startSandbox({ port: 0, host: '127.0.0.1', ...lookupSandbox });
}
