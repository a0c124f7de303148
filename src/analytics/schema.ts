/**
 * The service's wire formats and their normalisation. The spec leaves the response body "not
 * shown", so these schemas follow what public clients read (analytics-api-notes.md) and tolerate
 * the rest: unknown fields are accepted and dropped (plain `z.object` strips them, and zod compiles
 * it to a fast parser), `null` counts as missing, numbers may arrive as numeric strings.
 *
 * Malformed items: an influencer without a `user.screen_name` cannot be shown, so it is dropped
 * and reported in `dropped` (the client logs a warning). If every item of a non-empty answer is
 * malformed, the answer as a whole is not what the contract says and is rejected. A malformed
 * optional field (say a non-numeric `mentions`) only makes that field missing.
 *
 * Surplus items: a service that ignores `limit` sends more items than were asked for. Items are
 * validated in order until as many valid ones as asked for are kept; the rest are counted in
 * `surplus` and dropped unread, so the top N is the same as if every item had been validated and
 * the list cut afterwards, without the cost of validating what is thrown away.
 */
import { z } from 'zod';
import { InvalidResponseError } from '../errors.ts';
import { type Influencer, type Metric, metricNames, type StakeholderCategory } from './types.ts';

/** Token endpoint answer (spec §2.1); further fields are tolerated. */
export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

const numericString = z
  .string()
  .trim()
  .regex(/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/)
  .transform(Number)
  .pipe(z.number());
/** A finite number, or a numeric string read as one (`"1200"`). */
const numeric = z.union([z.number(), numericString]);

/** An optional field: missing, `null` or malformed all read as absent. */
function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().catch(undefined);
}

const stakeholderCategorySchema = z.object({
  id: optional(z.union([z.number(), z.string()])),
  name: z.string().trim().min(1),
});

const userSchema = z.object({
  screen_name: z.string().trim().min(1),
  display_name: optional(z.string()),
  profile_image: optional(z.string()),
  hsg_score: optional(numeric),
  followers_count: optional(numeric.pipe(z.number().int().nonnegative())),
  stakeholder_categories: optional(z.array(z.unknown())),
});

const influencerItemSchema = z.object({
  symplurrank: optional(numeric.pipe(z.number().int().positive())),
  user: userSchema,
  hsg_score: optional(numeric),
  mentions: optional(numeric),
  retweets: optional(numeric),
  tweets: optional(numeric),
  impressions: optional(numeric),
  replies: optional(numeric),
});
type InfluencerItem = z.infer<typeof influencerItemSchema>;

const influencersBodySchema = z.object({ influencers: z.array(z.unknown()) });

export interface DroppedItem {
  /** Position of the item in the service's `influencers` array. */
  readonly index: number;
  /** Where the item broke the contract, e.g. `user.screen_name: expected string`. */
  readonly problems: readonly string[];
}

export interface ParsedInfluencers {
  readonly influencers: Influencer[];
  readonly dropped: readonly DroppedItem[];
  /** Items after the first `keep` valid ones: neither validated nor kept. */
  readonly surplus: number;
}

/**
 * Validates a decoded 200 body and normalises its first `keep` valid items. Throws
 * InvalidResponseError when the body has no `influencers` array or when every one of its items is
 * malformed.
 */
export function parseInfluencersBody(
  body: unknown,
  status: number,
  keep = Number.POSITIVE_INFINITY,
): ParsedInfluencers {
  const envelope = influencersBodySchema.safeParse(body);
  if (!envelope.success) {
    throw new InvalidResponseError(status, 'the body has no "influencers" array', {
      cause: envelope.error,
    });
  }
  const influencers: Influencer[] = [];
  const dropped: DroppedItem[] = [];
  const items = envelope.data.influencers;
  let index = 0;
  for (; index < items.length && influencers.length < keep; index += 1) {
    const item = influencerItemSchema.safeParse(items[index]);
    if (item.success) influencers.push(normaliseInfluencer(item.data, index));
    else dropped.push({ index, problems: item.error.issues.map(describeIssue) });
  }
  if (influencers.length === 0 && dropped.length > 0) {
    throw new InvalidResponseError(
      status,
      `none of the ${dropped.length} influencer item(s) is valid (${dropped[0]?.problems.join('; ')})`,
    );
  }
  return { influencers, dropped, surplus: items.length - index };
}

function normaliseInfluencer(item: InfluencerItem, index: number): Influencer {
  const { user } = item;
  const metrics: Partial<Record<Metric, number>> = {};
  for (const name of metricNames) {
    const value = item[name];
    if (value !== undefined && value !== null) metrics[name] = value;
  }
  return {
    rank: item.symplurrank ?? index + 1,
    screenName: user.screen_name,
    ...(user.display_name ? { displayName: user.display_name } : {}),
    ...(user.profile_image ? { profileImageUrl: user.profile_image } : {}),
    ...(user.hsg_score !== undefined && user.hsg_score !== null
      ? { hsgScore: user.hsg_score }
      : {}),
    ...(user.followers_count !== undefined && user.followers_count !== null
      ? { followersCount: user.followers_count }
      : {}),
    stakeholderCategories: normaliseCategories(user.stakeholder_categories),
    metrics,
  };
}

function normaliseCategories(raw: readonly unknown[] | null | undefined): StakeholderCategory[] {
  const categories: StakeholderCategory[] = [];
  for (const entry of raw ?? []) {
    const parsed = stakeholderCategorySchema.safeParse(entry);
    if (!parsed.success) continue;
    const { id, name } = parsed.data;
    categories.push(id === undefined || id === null ? { name } : { id, name });
  }
  return categories;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
