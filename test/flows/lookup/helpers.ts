/** The fixed clock, answer, request, flow and sink the LookupFlow plan and run tests share. */
import type { AnalyticsApi, InfluencersResult } from '../../../src/analytics/types.ts';
import { LookupFlow } from '../../../src/flows/lookup/index.ts';
import { createLogger } from '../../../src/logger.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { parseLookup } from '../../../src/parsing/index.ts';

export const now = new Date('2026-11-21T15:00:00Z');
export const result: InfluencersResult = {
  influencers: [
    {
      rank: 1,
      screenName: 'DrJane',
      displayName: 'Dr Jane',
      stakeholderCategories: [],
      metrics: { mentions: 42 },
    },
  ],
};
export const request = parseLookup('#hcsm last week', {
  now,
  zone: 'Europe/Paris',
}) as LookupRequest;

export function flowWith(
  getInfluencers: AnalyticsApi['getInfluencers'],
  policy: { progressUpdateMs: number; timeoutMs: number; earliestDataDate?: string } = {
    progressUpdateMs: 1_000,
    timeoutMs: 5_000,
  },
) {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => lines.push(line) },
  });
  return {
    flow: new LookupFlow({ analytics: { getInfluencers }, logger, policy, now: () => now }),
    lines,
  };
}

export function recordingSink() {
  const seen: { kind: 'progress' | 'finish'; message: SlackMessage }[] = [];
  return {
    seen,
    sink: {
      progress: async (message: SlackMessage) => void seen.push({ kind: 'progress', message }),
      finish: async (message: SlackMessage) => void seen.push({ kind: 'finish', message }),
    },
  };
}
