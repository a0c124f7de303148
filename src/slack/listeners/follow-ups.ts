/**
 * Questions typed in the app's DM outside agent threads, planned with the DM's last question so a
 * follow-up (`how about #lcsm?`, `same for last month`) keeps its window, filter and options,
 * whichever instance sharing the store answers it. One memory per app: the DM listener and the
 * assistant pane's threads share it.
 */
import type { WebClient } from '@slack/web-api';
import { FollowUps } from '../../flows/lookup/follow-ups.ts';
import type { LookupPlan } from '../../flows/lookup/index.ts';
import { defined } from '../../model/defined.ts';
import { planFor } from '../delivery/lookup-delivery.ts';
import type { SlackDeps } from '../deps.ts';

const memories = new WeakMap<SlackDeps, FollowUps>();

/** The app's memory of each DM's last question, built at its first use. */
export function followUpsOf(deps: SlackDeps): FollowUps {
  let followUps = memories.get(deps);
  if (followUps === undefined) {
    followUps = new FollowUps({
      questions: () => deps.digests.database.lastQuestions,
      logger: deps.logger,
      now: () => deps.flow.now(),
    });
    memories.set(deps, followUps);
  }
  return followUps;
}

/**
 * What `text` asks for in the conversation `conversation` (a DM, or one of its assistant threads),
 * a follow-up reading the conversation's last question; a lookup becomes the question its next
 * follow-up reads.
 */
export async function planInDirectMessage(
  deps: SlackDeps,
  client: WebClient,
  conversation: string,
  userId: string,
  text: string,
): Promise<LookupPlan> {
  const followUps = followUpsOf(deps);
  const previous = await followUps.previous(conversation);
  let plan: LookupPlan;
  if (previous === undefined) {
    plan = await planFor(deps, client, userId, text);
  } else {
    const zone = await deps.zones.zoneOf(client, userId);
    plan = deps.flow.plan(text, {
      zone: zone.zone,
      zoneFallback: zone.fallback,
      previous,
      ...defined({ locale: zone.locale }),
    });
  }
  if (plan.kind === 'lookup') await followUps.remember(conversation, plan.request);
  return plan;
}
