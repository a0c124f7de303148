import { defined } from '../../src/model/defined.ts';
/**
 * Request bodies as Slack sends them to the app's one endpoint: slash commands and interactivity
 * as form bodies (interactivity wraps JSON in `payload=`), events as JSON envelopes.
 */

export const teamId = 'T0TEAM001';
export const otherTeamId = 'T0OTHER99';
export const userId = 'U0PERSON1';
export const botUserId = 'U0BOT0001';
export const botId = 'B0BOT0001';
export const apiAppId = 'A0APP0001';

export interface EncodedBody {
  readonly body: string;
  readonly contentType: string;
}

let sequence = 1_000;
const next = () => {
  sequence += 1;
  return sequence;
};

export function responseUrlFor(name: string): string {
  return `https://hooks.slack.test/commands/${teamId}/${name}/${next()}`;
}

export interface CommandOptions {
  readonly text: string;
  readonly command?: string;
  readonly teamId?: string;
  readonly userId?: string;
  readonly channelId?: string;
  readonly responseUrl?: string;
}

export function slashCommand(options: CommandOptions): EncodedBody & { responseUrl: string } {
  const responseUrl = options.responseUrl ?? responseUrlFor('cmd');
  const form = new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: options.teamId ?? teamId,
    team_domain: 'example',
    channel_id: options.channelId ?? 'C0CHANNEL1',
    channel_name: 'general',
    user_id: options.userId ?? userId,
    user_name: 'person',
    command: options.command ?? '/influencers',
    text: options.text,
    api_app_id: apiAppId,
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: `${next()}.trigger`,
  });
  return {
    body: form.toString(),
    contentType: 'application/x-www-form-urlencoded',
    responseUrl,
  };
}

function interactive(payload: Record<string, unknown>): EncodedBody {
  return {
    body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    contentType: 'application/x-www-form-urlencoded',
  };
}

export interface ButtonOptions {
  readonly actionId: string;
  readonly value?: string;
  readonly blockId?: string;
  readonly responseUrl?: string;
  readonly teamId?: string;
  readonly container?: Record<string, unknown>;
  /** The message the button is under, as Slack sends it for messages that are not ephemeral. */
  readonly message?: Record<string, unknown>;
  readonly view?: Record<string, unknown>;
}

export function blockAction(options: ButtonOptions): EncodedBody & { responseUrl: string } {
  const responseUrl = options.responseUrl ?? responseUrlFor('action');
  const team = options.teamId ?? teamId;
  const payload: Record<string, unknown> = {
    type: 'block_actions',
    team: { id: team, domain: 'example' },
    user: { id: userId, username: 'person', team_id: team },
    api_app_id: apiAppId,
    token: 'legacy-verification-token',
    container: options.container ?? {
      type: 'message',
      message_ts: '1700000000.000100',
      channel_id: 'C0CHANNEL1',
      is_ephemeral: true,
    },
    trigger_id: `${next()}.trigger`,
    channel: {
      id:
        typeof options.container?.channel_id === 'string'
          ? options.container.channel_id
          : 'C0CHANNEL1',
      name: 'general',
    },
    ...(options.message === undefined ? {} : { message: options.message }),
    response_url: responseUrl,
    actions: [
      {
        type: 'button',
        action_id: options.actionId,
        block_id: options.blockId ?? 'block',
        text: { type: 'plain_text', text: 'button' },
        ...defined({ value: options.value }),
        action_ts: '1700000001.000200',
      },
    ],
  };
  if (options.view) {
    payload.view = options.view;
    delete payload.channel;
    delete payload.response_url;
  }
  return { ...interactive(payload), responseUrl };
}

export interface ViewSubmissionOptions {
  readonly callbackId: string;
  /** `state.values`: block id -> action id -> element state. */
  readonly values: Record<string, Record<string, Record<string, unknown>>>;
  readonly privateMetadata?: string;
  readonly teamId?: string;
}

export function viewSubmission(options: ViewSubmissionOptions): EncodedBody {
  const team = options.teamId ?? teamId;
  return interactive({
    type: 'view_submission',
    team: { id: team, domain: 'example' },
    user: { id: userId, username: 'person', team_id: team },
    api_app_id: apiAppId,
    token: 'legacy-verification-token',
    trigger_id: `${next()}.trigger`,
    view: {
      id: 'V0VIEW0001',
      team_id: team,
      type: 'modal',
      callback_id: options.callbackId,
      private_metadata: options.privateMetadata ?? '',
      blocks: [],
      state: { values: options.values },
      hash: '1700000000.abc',
      title: { type: 'plain_text', text: 'Look up' },
      app_id: apiAppId,
      bot_id: botId,
    },
    response_urls: [],
  });
}

export interface EventOptions {
  readonly event: Record<string, unknown>;
  readonly eventId?: string;
  readonly teamId?: string;
}

export function eventCallback(options: EventOptions): EncodedBody & { eventId: string } {
  const eventId = options.eventId ?? `Ev${next()}`;
  const team = options.teamId ?? teamId;
  const envelope = {
    token: 'legacy-verification-token',
    team_id: team,
    api_app_id: apiAppId,
    event: options.event,
    type: 'event_callback',
    event_id: eventId,
    event_time: 1_700_000_000,
    authorizations: [
      {
        enterprise_id: null,
        team_id: team,
        user_id: botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
  return { body: JSON.stringify(envelope), contentType: 'application/json', eventId };
}

export function directMessageEvent(text: string, extra: Record<string, unknown> = {}) {
  const ts = `${1_700_000_000 + next()}.000100`;
  return {
    type: 'message',
    channel: 'D0DIRECT01',
    channel_type: 'im',
    user: userId,
    text,
    ts,
    event_ts: ts,
    team: teamId,
    ...extra,
  };
}

export function mentionEvent(text: string, extra: Record<string, unknown> = {}) {
  const ts = `${1_700_000_000 + next()}.000200`;
  return {
    type: 'app_mention',
    channel: 'C0CHANNEL1',
    user: userId,
    text: `<@${botUserId}> ${text}`,
    ts,
    event_ts: ts,
    team: teamId,
    ...extra,
  };
}

export function homeOpenedEvent() {
  return {
    type: 'app_home_opened',
    user: userId,
    channel: 'D0DIRECT01',
    tab: 'home',
    event_ts: '1700000000.000300',
  };
}

/** A global shortcut chosen from the shortcuts menu, as Slack posts it to the interactivity URL. */
export function globalShortcut(callbackId: string): EncodedBody & { triggerId: string } {
  const triggerId = `${next()}.trigger`;
  return {
    ...interactive({
      type: 'shortcut',
      token: 'legacy-verification-token',
      action_ts: '1700000002.000300',
      team: { id: teamId, domain: 'example' },
      user: { id: userId, username: 'person', team_id: teamId },
      is_enterprise_install: false,
      enterprise: null,
      callback_id: callbackId,
      trigger_id: triggerId,
    }),
    triggerId,
  };
}

/** The bot token Slack puts in each `function_executed` event, valid for that run only. */
export const functionBotToken = 'xwfp-function-run-token-0123';

/** A run of a Workflow Builder step: the `function_executed` event with the inputs a workflow mapped. */
export function functionExecutedEvent(callbackId: string, inputs: Record<string, unknown>) {
  const executionId = `Fx${next()}`;
  return {
    executionId,
    event: {
      type: 'function_executed',
      function: {
        id: 'Fn0STEP0001',
        callback_id: callbackId,
        title: 'Top influencers',
        type: 'app',
        input_parameters: [],
        output_parameters: [],
        app_id: apiAppId,
        date_created: 1_700_000_000,
        date_updated: 1_700_000_000,
        date_deleted: 0,
      },
      inputs,
      function_execution_id: executionId,
      workflow_execution_id: `Wx${next()}`,
      event_ts: `${1_700_000_000 + next()}.000400`,
      bot_access_token: functionBotToken,
    },
  };
}

/** The person opened the assistant pane: a new thread in the app's DM, beside `contextChannel`. */
export function assistantThreadStartedEvent(contextChannel?: string) {
  const threadTs = `${1_700_000_000 + next()}.000500`;
  return {
    threadTs,
    event: {
      type: 'assistant_thread_started',
      assistant_thread: {
        user_id: userId,
        context:
          contextChannel === undefined ? {} : { channel_id: contextChannel, team_id: teamId },
        channel_id: 'D0DIRECT01',
        thread_ts: threadTs,
      },
      event_ts: `${1_700_000_000 + next()}.000600`,
    },
  };
}

/** The person opened the app's Messages tab (agent messaging): `channel` is their DM with it. */
export function messagesTabOpenedEvent(channel: string) {
  return {
    type: 'app_home_opened',
    user: userId,
    channel,
    tab: 'messages',
    event_ts: `${1_700_000_000 + next()}.000800`,
  };
}

/** The person pressed Stop in an agent conversation's thread. */
export function agentSessionStoppedEvent(
  channel: string,
  threadTs: string,
  streaming: string[] = [],
) {
  return {
    type: 'agent_session_stopped',
    channel,
    user: userId,
    thread_ts: threadTs,
    streaming_message_ts: streaming,
    event_ts: `${1_700_000_000 + next()}.000900`,
  };
}
