/**
 * The MCP server's tools, `top_influencers` and `read_window`, described for a model. One server
 * per request (the transport is stateless), made for the caller the endpoint authenticated: a
 * request Slack signed for Slackbot speaks for the person its `_meta.slack` names, so their
 * workspace must be allowed and their Slack zone reads the window; a bearer-token client speaks for
 * nobody in particular and reads windows in UTC unless it names a zone.
 */
import { type CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TeamNotAllowedError } from '../errors.ts';
import type { LookupFlow } from '../flows/lookup/index.ts';
import {
  readWindowTool,
  type ToolContext,
  type ToolOutcome,
  topInfluencersTool,
} from '../flows/mcp-tools.ts';
import type { Logger } from '../logger.ts';
import { metricNames } from '../model/metrics.ts';
import { errorText } from '../render/errors.ts';
import { toolRefusals } from '../render/lookups/mcp-tools.ts';
import { listOrText, numberOrText, oneTypeEach } from './schemas.ts';

/** Who the endpoint let in. */
export type Caller = { readonly kind: 'bearer' } | { readonly kind: 'slack' };

/** The person a Slack-signed request names (`params._meta.slack`). */
export interface SlackPerson {
  readonly userId: string;
  readonly teamId: string;
  readonly enterpriseId?: string;
}

export interface McpToolsDeps {
  readonly flow: LookupFlow;
  readonly logger: Logger;
  readonly version: string;
  /** The person's Slack zone (users.info, bounded); UTC with `fallback` when it cannot be read. */
  readonly zoneOf: (userId: string, teamId: string) => Promise<{ zone: string; fallback: boolean }>;
  /** The workspace allow-list, as every Slack request meets it. */
  readonly admits: (teamId: string, enterpriseId: string | undefined) => boolean;
  /** Runs a lookup so that a shutdown waits for it, then stops it (the signal). */
  readonly run: <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>;
}

const topInfluencersInput = oneTypeEach(
  z.object({
    databases: listOrText.describe(
      'The conversations to rank: a #hashtag, a "quoted phrase", a numeric database ID, or group:<name>, one or several separated by commas. Examples: "#hcsm"; "#bcsm, #lcsm"; "\\"breast cancer\\""; "group:Oncology".',
    ),
    window: z
      .string()
      .optional()
      .describe(
        'The time window in the app\'s own words; default the last 7 days to now. Examples: "last week" (the previous Monday-to-Sunday week), "past 7 days", "yesterday", "this month", "Oct 1 to Oct 31", "Q3 2026", "since Monday", "yesterday 9am to 5pm". Confirm a reading first with read_window.',
      ),
    top: numberOrText
      .optional()
      .describe('How many people to rank: 1 to 100, default 10. Examples: 5, 20.'),
    metric: z
      .string()
      .optional()
      .describe(
        `What to rank by: ${metricNames.join(', ')} (reach means impressions), or followers; default mentions. Example: "impressions".`,
      ),
    compare: z
      .string()
      .optional()
      .describe(
        'A window to compare with; each row then has its previous rank. Examples: "previous period" (the same length just before), "last year", "the week before", "Q2".',
      ),
    stakeholders: z
      .string()
      .optional()
      .describe(
        'Who to keep or leave out, by stakeholder category. Examples: "doctors", "patients and caregivers", "no pharma", "only researchers".',
      ),
    zone: z
      .string()
      .optional()
      .describe(
        'The time zone the window is read in: an IANA name, a city or UTC; default the Slack person\'s zone (UTC for other clients). Examples: "Europe/London", "Boston", "UTC".',
      ),
  }),
);

const windowShape = z.object({
  start: z.string().describe('ISO 8601 with the zone offset; included.'),
  end: z.string().describe('ISO 8601 with the zone offset; excluded.'),
  zone: z.string(),
  wholeDays: z.boolean().describe('True when the window runs from midnight to midnight.'),
  words: z.string().describe('The window as answers word it.'),
});

const rowShape = z.object({
  rank: z.number(),
  name: z.string(),
  handle: z.string().describe('X handle without its @.'),
  metrics: z.record(z.string(), z.number()),
  categories: z.array(z.string()),
  followers: z.number().optional(),
  previousRank: z
    .number()
    .nullable()
    .optional()
    .describe('In a comparison: the rank in the earlier window, null when new.'),
});

const rankingOutput = oneTypeEach(
  z.object({
    databases: z.array(z.string()),
    window: windowShape,
    metric: z.enum(metricNames),
    orderBy: z.literal('followers').optional(),
    stakeholders: z
      .object({ include: z.array(z.string()), exclude: z.array(z.string()) })
      .optional(),
    rows: z.array(rowShape),
    comparison: z.object({ window: windowShape, droppedOut: z.array(rowShape) }).optional(),
  }),
);

const readWindowInput = oneTypeEach(
  z.object({
    text: z
      .string()
      .describe(
        'A time window as top_influencers takes it, optionally with a comparison and a zone. Examples: "last week", "Oct 1 to Oct 31 vs previous period", "yesterday 9am to 5pm in Europe/London".',
      ),
    zone: z
      .string()
      .optional()
      .describe('The zone to read it in when the text names none. Example: "America/New_York".'),
  }),
);

const readWindowOutput = oneTypeEach(
  z.object({ window: windowShape, compare: windowShape.optional() }),
);

function failed(error: string): CallToolResult {
  return { content: [{ type: 'text', text: error }], isError: true };
}

function result<T extends Record<string, unknown>>(outcome: ToolOutcome<T>): CallToolResult {
  if (!outcome.ok) return failed(outcome.error);
  return { content: [{ type: 'text', text: outcome.text }], structuredContent: outcome.content };
}

function field(record: unknown, name: string): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const value = (record as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The person `_meta.slack` names; undefined when it names no user and team. */
export function slackPerson(meta: unknown): SlackPerson | undefined {
  const slack =
    typeof meta === 'object' && meta !== null ? (meta as { slack?: unknown }).slack : undefined;
  const userId = field(slack, 'user_id');
  const teamId = field(slack, 'team_id');
  if (userId === undefined || teamId === undefined) return undefined;
  const enterpriseId = field(slack, 'enterprise_id');
  return { userId, teamId, ...(enterpriseId === undefined ? {} : { enterpriseId }) };
}

/** The MCP server for one request from `caller`. */
export function mcpServer(deps: McpToolsDeps, caller: Caller): McpServer {
  const server = new McpServer(
    { name: 'hcsm-influencers', version: deps.version },
    {
      // The tools never change while the app runs, so no list_changed is ever sent.
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Ranks the people who drove healthcare conversations on X (#hashtags, phrases, database IDs) over a time window. Use read_window to check how a window will be read, then top_influencers.',
    },
  );
  const logger = deps.logger.child({ component: 'mcp' });

  /** The zone and the person's admission, or the words of a refusal. */
  const contextFor = async (
    meta: unknown,
  ): Promise<{ context: Omit<ToolContext, 'signal'>; who: Record<string, string> } | string> => {
    if (caller.kind === 'bearer') return { context: { zone: 'UTC' }, who: { caller: 'bearer' } };
    const person = slackPerson(meta);
    if (person === undefined) return toolRefusals.noIdentity;
    const who = { caller: 'slack', userId: person.userId, teamId: person.teamId };
    if (!deps.admits(person.teamId, person.enterpriseId)) {
      logger.info(who, 'refused a tool call from a workspace outside the allow-list');
      return errorText(new TeamNotAllowedError(person.teamId));
    }
    const zone = await deps.zoneOf(person.userId, person.teamId);
    return { context: { zone: zone.zone, zoneFallback: zone.fallback }, who };
  };

  server.registerTool(
    'top_influencers',
    {
      title: 'Top influencers',
      description:
        'Ranks the people who drove one or more healthcare conversations on X over a time window, by mentions unless another metric is asked for: each row has the rank, name, handle, metrics and stakeholder categories, and with `compare` the previous rank. Returns the ranking as data and as the text the app would answer in Slack. Inputs are read as the app reads a person\'s words, so "#hcsm", "last week", "top 5", "by impressions" all work; an input the app cannot read comes back as an error saying what to change.',
      inputSchema: topInfluencersInput,
      outputSchema: rankingOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args, ctx) => {
      const resolved = await contextFor(ctx.mcpReq._meta);
      if (typeof resolved === 'string') return failed(resolved);
      const outcome = await deps.run((signal) =>
        topInfluencersTool(deps.flow, args, {
          ...resolved.context,
          signal: AbortSignal.any([signal, ctx.mcpReq.signal]),
        }),
      );
      logger.info({ ...resolved.who, tool: 'top_influencers', ok: outcome.ok }, 'tool call');
      return result(outcome);
    },
  );

  server.registerTool(
    'read_window',
    {
      title: 'Read a time window',
      description:
        'Says which window the app would use for a phrase: its start and end (the end excluded), its zone, and whether it is whole days or exact instants, with the comparison window when the phrase has one. Use it to confirm a window with the person before asking top_influencers.',
      inputSchema: readWindowInput,
      outputSchema: readWindowOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, ctx) => {
      const resolved = await contextFor(ctx.mcpReq._meta);
      if (typeof resolved === 'string') return failed(resolved);
      const outcome = readWindowTool(deps.flow, args, resolved.context);
      logger.info({ ...resolved.who, tool: 'read_window', ok: outcome.ok }, 'tool call');
      return result(outcome);
    },
  );
  return server;
}
