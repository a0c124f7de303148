/**
 * What the service cannot do, done on its answer: keep only some stakeholder categories
 * (`doctors`, `excluding orgs`) and rank by follower count (`by followers`). Both need the top of
 * the service's own ranking, as much as it gives (500), then choose and rank here; the result says
 * how many were ranked and how many kept, so an answer can say "Doctors among the top 500 by
 * mentions: 37".
 */
import { passesStakeholders, type StakeholderFilter } from '../model/stakeholders.ts';
import type { Influencer, InfluencersResult } from './types.ts';

/** The most people the service ranks in one answer (`limit`, spec and notes). */
export const serviceMaxLimit = 500;

export interface LocalSelection {
  readonly stakeholders?: StakeholderFilter;
  readonly orderBy?: 'followers';
}

/** True when the question needs the service's whole top 500 rather than its top N. */
export function ranksLocally(selection: LocalSelection): boolean {
  return selection.stakeholders !== undefined || selection.orderBy !== undefined;
}

/** The `limit` to ask the service for: its most when choosing here, else the top N. */
export function serviceLimit(selection: LocalSelection, top: number): number {
  return ranksLocally(selection) ? serviceMaxLimit : top;
}

/**
 * The top `top` of the service's answer after the filter and the order chosen here, ranked 1..N in
 * their new order; the service's answer unchanged when nothing is chosen here.
 */
export function selectLocally(
  result: InfluencersResult,
  selection: LocalSelection,
  top: number,
): InfluencersResult {
  if (!ranksLocally(selection)) return result;
  const pool = [...result.influencers].sort((a, b) => a.rank - b.rank);
  const filter = selection.stakeholders;
  const kept =
    filter === undefined
      ? pool
      : pool.filter((person) => passesStakeholders(categoryNames(person), filter));
  // A stable sort: equal follower counts keep the service's order.
  const ordered =
    selection.orderBy === 'followers'
      ? [...kept].sort((a, b) => followers(b) - followers(a))
      : kept;
  return {
    influencers: ordered.slice(0, top).map((person, index) => ({ ...person, rank: index + 1 })),
    selection: { pool: pool.length, matched: kept.length },
  };
}

function categoryNames(person: Influencer): string[] {
  return person.stakeholderCategories
    .map((category) => category?.name)
    .filter((name): name is string => typeof name === 'string');
}

/** Followers, with an account the service sent none for last. */
function followers(person: Influencer): number {
  const value = person.followersCount;
  return typeof value === 'number' && Number.isFinite(value) ? value : -1;
}
