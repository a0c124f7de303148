import type { AllMiddlewareArgs, AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { TeamNotAllowedError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { errorText, renderError } from '../../render/errors.ts';
import { lookupModalInputs } from '../../render/ids.ts';
import { renderRefusedHome } from '../../render/management/home.ts';
import type { SeenRequests } from '../../requests/seen-requests.ts';
import { postInConversation } from '../web-api/conversation.ts';

type JsonObject = Record<string, unknown>;

function asRecord(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null ? (value as JsonObject) : undefined;
}

function stringField(record: JsonObject | undefined, name: string): string | undefined {
  const value = record?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The workspace a request comes from, wherever its payload type puts it. */
export function requestTeamId(body: unknown): string | undefined {
  const record = asRecord(body);
  if (record === undefined) return undefined;
  return (
    stringField(record, 'team_id') ??
    stringField(asRecord(record.team), 'id') ??
    stringField(asRecord(record.user), 'team_id')
  );
}

/**
 * The Enterprise Grid organization a request comes from, when it comes from one: commands and
 * event envelopes carry `enterprise_id`, interactive payloads `enterprise.id`, and events name it
 * in their authorizations.
 */
export function requestEnterpriseId(body: unknown): string | undefined {
  const record = asRecord(body);
  if (record === undefined) return undefined;
  const authorizations = Array.isArray(record.authorizations) ? record.authorizations : [];
  return (
    stringField(record, 'enterprise_id') ??
    stringField(asRecord(record.enterprise), 'id') ??
    stringField(asRecord(record.team), 'enterprise_id') ??
    stringField(asRecord(record.user), 'enterprise_id') ??
    stringField(asRecord(authorizations[0]), 'enterprise_id')
  );
}

/**
 * Whether the allow-list admits a request. `T…` entries name workspaces; `E…` entries name an
 * Enterprise Grid organization and admit every workspace of it (matched on the request's
 * enterprise id, since a team id never starts with `E`). An empty list admits everyone.
 */
export function isAllowedRequest(
  allowedIds: readonly string[],
  teamId: string | undefined,
  enterpriseId: string | undefined,
): boolean {
  if (allowedIds.length === 0) return true;
  return (
    (teamId !== undefined && allowedIds.includes(teamId)) ||
    (enterpriseId !== undefined && allowedIds.includes(enterpriseId))
  );
}

export interface TeamGuardOptions {
  readonly logger: Logger;
  /** Slack redelivers events; a refusal is posted once per event id. */
  readonly seen?: SeenRequests;
}

/**
 * Refuses every request from a workspace outside `allowedIds` before any handler runs: the person
 * gets the renderer's refusal where they asked (the command's ack, the DM or the mention's thread,
 * under the modal's first input, a Home tab holding only the refusal) and never any data.
 */
export function teamGuard(
  allowedIds: readonly string[],
  options: TeamGuardOptions,
): Middleware<AnyMiddlewareArgs> {
  const { logger } = options;
  return async (args: AnyMiddlewareArgs & AllMiddlewareArgs) => {
    const teamId = requestTeamId(args.body) ?? args.context.teamId;
    const enterpriseId = requestEnterpriseId(args.body) ?? args.context.enterpriseId;
    if (isAllowedRequest(allowedIds, teamId, enterpriseId)) {
      await args.next();
      return;
    }
    const type = asRecord(args.body)?.type;
    logger.warn(
      { teamId, enterpriseId, type },
      'refused a request from a workspace that is not allowed',
    );
    const error = new TeamNotAllowedError(teamId ?? enterpriseId ?? 'unknown');
    const refusal = renderError(error);
    try {
      if (type === undefined && 'command' in args) {
        await args.ack({ response_type: 'ephemeral', ...refusal });
        return;
      }
      if (type === 'view_submission' && 'ack' in args && args.ack !== undefined) {
        const blockId = firstInputBlockId(args.body);
        const ack = args.ack as (response: JsonObject) => Promise<void>;
        await ack({ response_action: 'errors', errors: { [blockId]: errorText(error) } });
        return;
      }
      if ('ack' in args && args.ack !== undefined) await (args.ack as () => Promise<void>)();
      if ('respond' in args && args.respond !== undefined && type === 'block_actions') {
        await args.respond({ response_type: 'ephemeral', replace_original: false, ...refusal });
        return;
      }
      if (type === 'event_callback') await refuseEvent(args.body, args.client, options);
    } catch (failure) {
      logger.warn({ err: failure, teamId, type }, 'could not deliver the refusal');
    }
  };
}

/** The refusal for an event a person caused: a DM, a mention, opening the Home tab. */
async function refuseEvent(
  body: unknown,
  client: WebClient,
  options: TeamGuardOptions,
): Promise<void> {
  const record = asRecord(body);
  const event = asRecord(record?.event);
  if (event === undefined) return;
  const fromPerson =
    event.subtype === undefined &&
    event.bot_id === undefined &&
    stringField(event, 'user') !== undefined;
  if (!fromPerson) return;
  const channel = stringField(event, 'channel');
  const isDm = event.type === 'message' && event.channel_type === 'im';
  const isMention = event.type === 'app_mention';
  const isHome = event.type === 'app_home_opened' && event.tab === 'home';
  if (!isDm && !isMention && !isHome) return;
  if ((await options.seen?.firstEvent(stringField(record, 'event_id'))) === false) return;

  const teamId = requestTeamId(body);
  const refusal = renderError(new TeamNotAllowedError(teamId ?? 'unknown'));
  if (isHome) {
    const user = stringField(event, 'user') as string;
    await client.views.publish({ user_id: user, view: renderRefusedHome(refusal.text) });
    return;
  }
  if (channel === undefined) return;
  const threadTs = isMention
    ? (stringField(event, 'thread_ts') ?? stringField(event, 'ts'))
    : stringField(event, 'thread_ts');
  await postInConversation(
    client,
    threadTs === undefined ? { channel } : { channel, threadTs },
    refusal,
  );
}

/** Where a modal's error goes: its first input, else the lookup modal's databases input. */
function firstInputBlockId(body: unknown): string {
  const view = asRecord(asRecord(body)?.view);
  const blocks = Array.isArray(view?.blocks) ? view.blocks : [];
  for (const block of blocks) {
    const record = asRecord(block);
    if (record?.type === 'input') {
      const id = stringField(record, 'block_id');
      if (id !== undefined) return id;
    }
  }
  const values = asRecord(asRecord(view?.state)?.values);
  const first = values === undefined ? undefined : Object.keys(values)[0];
  return first ?? lookupModalInputs.databases.blockId;
}
