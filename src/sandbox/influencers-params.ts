/**
 * The influencers endpoint's query parameters, checked in a fixed order so that a request with
 * several mistakes is always told about the same one first.
 */
import { type Checked, json, refused } from './answer.ts';
import { type SandboxMetric, sandboxMetrics } from './data.ts';
import type { DecodedQuery } from './query.ts';
import { formatInZone, isAcceptedZone, parseTimestamp } from './timestamps.ts';

const defaultLimit = 10;
const maxLimit = 500;
const singleParameters = ['databases', 'start', 'end', 'timezone', 'limit', 'metric'];

export interface InfluencersRequest {
  readonly databases: readonly string[];
  readonly start: Date;
  readonly end: Date;
  readonly zone: string;
  readonly limit: number;
  readonly metrics: readonly SandboxMetric[];
  /** The clock reading relative timestamps were resolved against. */
  readonly clock: Date;
}

/** Called once the token is accepted; the first check that fails refuses the request. */
export function influencersRequest(
  query: DecodedQuery,
  now: () => Date,
): Checked<InfluencersRequest> {
  if (!query.ok) return invalid(query.parameter, query.problem);
  const { values: params, repeated } = query;
  const twice = repeated.find((name) => singleParameters.includes(name));
  if (twice !== undefined) return invalid(twice, `Parameter ${twice} is given more than once`);
  for (const name of ['databases', 'start', 'end'] as const) {
    if ((params[name] ?? '').trim() === '') {
      return invalid(name, `Missing required parameter: ${name}`);
    }
  }
  const zone = params.timezone ?? 'UTC';
  if (!isAcceptedZone(zone)) {
    return invalid(
      'timezone',
      `Invalid timezone "${zone}": expected an <Area>/<City> IANA zone name or UTC`,
    );
  }
  const limit = limitOf(params.limit);
  if (!limit.ok) return limit;
  const metrics = metricsOf(params.metric);
  if (!metrics.ok) return metrics;
  const clock = now();
  const range = rangeOf(params.start ?? '', params.end ?? '', zone, clock);
  if (!range.ok) return range;
  const databases = databaseItems(params.databases ?? '');
  if (!databases.ok) return databases;
  return {
    ok: true,
    value: {
      databases: databases.value,
      ...range.value,
      zone,
      limit: limit.value,
      metrics: metrics.value,
      clock,
    },
  };
}

function limitOf(value: string | undefined): Checked<number> {
  if (value === undefined) return { ok: true, value: defaultLimit };
  const limit = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= maxLimit)) {
    return invalid('limit', `Invalid limit "${value}": expected an integer from 1 to ${maxLimit}`);
  }
  return { ok: true, value: limit };
}

function metricsOf(value: string | undefined): Checked<SandboxMetric[]> {
  if (value === undefined) return { ok: true, value: ['mentions'] };
  const items = value.split(',').map((item) => item.trim());
  const unknown = items.find((item) => !isMetric(item));
  if (unknown !== undefined) {
    return invalid(
      'metric',
      `Invalid metric "${unknown}": expected a comma-separated list of ${sandboxMetrics.join(', ')}`,
    );
  }
  return { ok: true, value: items.filter(isMetric) };
}

function isMetric(value: string): value is SandboxMetric {
  return (sandboxMetrics as readonly string[]).includes(value);
}

function rangeOf(
  startValue: string,
  endValue: string,
  zone: string,
  clock: Date,
): Checked<{ start: Date; end: Date }> {
  const start = parseTimestamp(startValue, { now: clock, zone });
  if (!start.ok) return invalid('start', `Invalid start "${startValue}": ${start.reason}`);
  const end = parseTimestamp(endValue, { now: clock, zone });
  if (!end.ok) return invalid('end', `Invalid end "${endValue}": ${end.reason}`);
  if (start.instant.getTime() >= end.instant.getTime()) {
    return invalid(
      'start',
      `Invalid date range: start (${formatInZone(start.instant, zone)}) must be before end (${formatInZone(end.instant, zone)})`,
    );
  }
  return { ok: true, value: { start: start.instant, end: end.instant } };
}

function databaseItems(value: string): Checked<string[]> {
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) {
    return invalid('databases', `Invalid databases "${value}": an item is empty`);
  }
  return { ok: true, value: items };
}

function invalid(parameter: string, message: string): Checked<never> {
  return refused(json(400, { error: 'invalid_request', message, parameter }));
}
