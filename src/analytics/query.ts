import type { InfluencersQuery } from './types.ts';

/** Path of the token endpoint, relative to the base URL (spec §4.1). */
export const tokenPath = '/v1/oauth/token';

/** Path of the influencers endpoint, relative to the base URL (spec §4.2). */
export const influencersPath = '/v1/twitter/analytics/people/influencers';

/** The zone the service assumes when a request names none (spec §2.3). */
export const defaultTimezone = 'UTC';

/**
 * Percent-encodes one query value the way the service expects (spec §4.2): `#` as `%23`, space as
 * `%20` and never `+`, which a form decoder would turn back into a space. `URLSearchParams` writes
 * form encoding (`+` for space), so it cannot be used here. `:` and `/` stay literal because the
 * query grammar allows them and they keep `group:` items and Area/City zones readable.
 */
export function encodeQueryValue(value: string): string {
  // Instants and most zones need no encoding: checked first, as every request encodes them.
  if (unencoded.test(value)) return value;
  return encodeURIComponent(value).replace(/%3A/g, ':').replace(/%2F/g, '/');
}

/** What `encodeURIComponent` leaves as it is, with the `:` and `/` kept literal here. */
const unencoded = /^[A-Za-z0-9\-_.!~*'():/]*$/;

/**
 * Encodes the databases list: each item encoded on its own, joined with literal commas. An item
 * cannot itself contain a comma, since commas are what separate items on the wire.
 */
export function encodeDatabases(databases: readonly string[]): string {
  return databases.map(encodeQueryValue).join(',');
}

/**
 * The path and query string of an influencers request. `timezone`, `limit` and `metric` are sent
 * only when the query sets them, so the service applies its own defaults otherwise.
 */
export function influencersRequestPath(query: InfluencersQuery): string {
  let search = `databases=${encodeDatabases(query.databases)}&start=${encodeQueryValue(query.start)}&end=${encodeQueryValue(query.end)}`;
  if (query.timezone !== undefined) search += `&timezone=${encodeQueryValue(query.timezone)}`;
  if (query.limit !== undefined) search += `&limit=${encodeQueryValue(String(query.limit))}`;
  if (query.metric !== undefined && query.metric.length > 0) {
    search += `&metric=${query.metric.map(encodeQueryValue).join(',')}`;
  }
  return `${influencersPath}?${search}`;
}

/**
 * A key equal for queries the service answers identically: the same databases in the same order
 * (the order can matter to the service), range, zone (absent means UTC), limit and metrics. Used
 * to share in-flight calls and to key the response cache.
 */
export function influencersQueryKey(query: InfluencersQuery): string {
  return JSON.stringify([
    query.databases,
    query.start,
    query.end,
    query.timezone ?? defaultTimezone,
    query.limit ?? null,
    query.metric !== undefined && query.metric.length > 0 ? query.metric : null,
  ]);
}
