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
 *
 * Plain items: an honest answer's items already have the shape the schemas produce (numbers as
 * numbers, trimmed names, nulls or nothing where a field is missing). Such an item is recognised
 * by a direct check and read as it is, because running every item of every answer through the
 * schemas cost more than the HTTP request itself; anything else (a numeric string, a malformed
 * field, a missing screen name) goes through the schemas, which decide and explain.
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
  const items = isRecord(body) && Array.isArray(body.influencers) ? body.influencers : undefined;
  if (items === undefined) {
    throw new InvalidResponseError(status, 'the body has no "influencers" array', {
      cause: influencersBodySchema.safeParse(body).error,
    });
  }
  const influencers: Influencer[] = [];
  const dropped: DroppedItem[] = [];
  let index = 0;
  for (; index < items.length && influencers.length < keep; index += 1) {
    const raw = items[index];
    if (isPlainItem(raw)) {
      influencers.push(normaliseInfluencer(raw, index));
      continue;
    }
    const item = influencerItemSchema.safeParse(raw);
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

type Writable<T> = { -readonly [K in keyof T]: T[K] };

function normaliseInfluencer(item: InfluencerItem, index: number): Influencer {
  const { user } = item;
  const metrics: Partial<Record<Metric, number>> = {};
  for (const name of metricNames) {
    const value = item[name];
    if (value !== undefined && value !== null) metrics[name] = value;
  }
  // Assigned field by field rather than spread: this runs for every item of every answer.
  const influencer: Writable<Partial<Influencer>> = {
    rank: item.symplurrank ?? index + 1,
    screenName: user.screen_name,
  };
  if (user.display_name) influencer.displayName = user.display_name;
  if (user.profile_image) influencer.profileImageUrl = user.profile_image;
  if (user.hsg_score !== undefined && user.hsg_score !== null) {
    influencer.hsgScore = user.hsg_score;
  }
  if (user.followers_count !== undefined && user.followers_count !== null) {
    influencer.followersCount = user.followers_count;
  }
  influencer.stakeholderCategories = normaliseCategories(user.stakeholder_categories);
  influencer.metrics = metrics;
  return influencer as Influencer;
}

function normaliseCategories(raw: readonly unknown[] | null | undefined): StakeholderCategory[] {
  const categories: StakeholderCategory[] = [];
  for (const entry of raw ?? []) {
    if (isPlainCategory(entry)) {
      const { id, name } = entry;
      categories.push(id === undefined || id === null ? { name } : { id, name });
      continue;
    }
    const parsed = stakeholderCategorySchema.safeParse(entry);
    if (!parsed.success) continue;
    const { id, name } = parsed.data;
    categories.push(id === undefined || id === null ? { name } : { id, name });
  }
  return categories;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const absent = (value: unknown): value is null | undefined => value === undefined || value === null;

/** A finite number, or nothing: what `numeric` yields without reading a string. */
const plainNumber = (value: unknown): boolean =>
  absent(value) || (typeof value === 'number' && Number.isFinite(value));

/** A safe integer of at least `least`, or nothing. */
const plainCount = (value: unknown, least: number): boolean =>
  absent(value) || (Number.isSafeInteger(value) && (value as number) >= least);

const plainText = (value: unknown): boolean => absent(value) || typeof value === 'string';

/** A non-empty string the schemas' `trim()` would leave as it is. */
const plainName = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && value.trim() === value;

/** An item `influencerItemSchema` would accept and return unchanged (unknown fields aside). */
function isPlainItem(raw: unknown): raw is InfluencerItem {
  if (!isRecord(raw)) return false;
  const { user } = raw;
  if (!isRecord(user) || !plainName(user.screen_name)) return false;
  if (!plainCount(raw.symplurrank, 1)) return false;
  for (const name of metricNames) if (!plainNumber(raw[name])) return false;
  return (
    plainText(user.display_name) &&
    plainText(user.profile_image) &&
    plainNumber(user.hsg_score) &&
    plainCount(user.followers_count, 0) &&
    (absent(user.stakeholder_categories) || Array.isArray(user.stakeholder_categories))
  );
}

/** A category `stakeholderCategorySchema` would accept and return unchanged. */
function isPlainCategory(entry: unknown): entry is z.infer<typeof stakeholderCategorySchema> {
  if (!isRecord(entry) || !plainName(entry.name)) return false;
  const { id } = entry;
  return absent(id) || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
