import { existsSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { functionIds, shortcutIds } from '../../src/render/ids.ts';
import { eventScopes, featureScopes, webApiScopes } from '../../src/slack/web-api/scopes.ts';
import { recordRegistrations } from '../helpers/recording-app.ts';
import { webApiCallsIn, webApiCallsInSource } from '../helpers/web-api-calls.ts';

const root = new URL('../../', import.meta.url);
const manifestText = readFileSync(new URL('manifest.yml', root), 'utf8');
const manifest = parse(manifestText) as {
  features: {
    slash_commands: { command: string; should_escape?: boolean; usage_hint?: string }[];
    app_home: Record<string, boolean>;
    shortcuts?: { type: string; callback_id: string }[];
  };
  oauth_config: { scopes: { bot: string[] } };
  functions?: Record<
    string,
    {
      input_parameters: Record<string, { type: string; name: string; is_required?: boolean }>;
      output_parameters: Record<string, { type: string; name: string }>;
    }
  >;
  settings: {
    org_deploy_enabled?: boolean;
    function_runtime?: string;
    event_subscriptions: { bot_events: string[]; request_url?: string };
    interactivity: { is_enabled: boolean };
    socket_mode_enabled: boolean;
  };
  mcp_servers?: Record<string, { url: string; auth_type: string }>;
};

/**
 * Events of the assistant pane, which the code still answers for installs that keep
 * `assistant_view`; the manifest declares agent messaging instead, as new apps get only that.
 */
const assistantPaneEvents: ReadonlySet<string> = new Set([
  'assistant_thread_started',
  'assistant_thread_context_changed',
]);

/**
 * Slack's official manifest schema, vendored with its source and licence (slack-schema/LICENSE) so
 * the manifest is validated on every clone. Where the reference copy sits beside the clone
 * (`../shared`, as in CI), the vendored one must not have drifted from it.
 */
const schemaUrl = new URL('slack-schema/manifest.schema.1.0.0.json', import.meta.url);
const referenceUrl = new URL('../../../shared/slack/manifest.schema.1.0.0.json', import.meta.url);

describe('manifest.yml', () => {
  it('validates against the Slack app manifest schema', () => {
    const schema = JSON.parse(readFileSync(schemaUrl, 'utf8')) as Record<string, unknown>;
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    // The schema uses a non-standard `regex` keyword and the `uri` format.
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:\S+$/i);
    const validate = ajv.compile(schema);
    const valid = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it.skipIf(!existsSync(referenceUrl))('vendors the reference schema unchanged', () => {
    expect(JSON.parse(readFileSync(schemaUrl, 'utf8'))).toEqual(
      JSON.parse(readFileSync(referenceUrl, 'utf8')),
    );
  });

  it('declares /influencers with a usage hint and literal hashtags', () => {
    expect(manifest.features.slash_commands).toHaveLength(1);
    const command = manifest.features.slash_commands[0];
    expect(command?.command).toBe('/influencers');
    expect(command?.should_escape).toBe(false);
    expect(command?.usage_hint).toContain('#hcsm');
  });

  it('enables the Home tab and a writable Messages tab', () => {
    expect(manifest.features.app_home).toEqual({
      home_tab_enabled: true,
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
  });

  it('declares every command and event the code listens for, and interactivity for its actions', () => {
    const registered = recordRegistrations();
    expect(registered.commands.sort()).toEqual(
      manifest.features.slash_commands.map((c) => c.command).sort(),
    );
    const events = registered.events
      .filter((event) => !assistantPaneEvents.has(event))
      .map((event) => (event === 'message' ? 'message.im' : event));
    expect([...new Set(events)].sort()).toEqual(
      [...manifest.settings.event_subscriptions.bot_events].sort(),
    );
    expect(registered.actions).toEqual(expect.arrayContaining(['influencers_share']));
    expect(registered.actions.length).toBeGreaterThan(2);
    expect(registered.views.length).toBeGreaterThan(0);
    expect(registered.shortcuts.sort()).toEqual(
      (manifest.features.shortcuts ?? []).map((s) => s.callback_id).sort(),
    );
    expect(registered.shortcuts).toEqual([shortcutIds.lookup]);
    expect(manifest.features.shortcuts?.[0]?.type).toBe('global');
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(registered.functions.sort()).toEqual(Object.keys(manifest.functions ?? {}).sort());
  });

  it('declares the top_influencers step as a remote function of an org-ready app', () => {
    const step = manifest.functions?.[functionIds.topInfluencers];
    expect(manifest.settings.function_runtime).toBe('remote');
    expect(manifest.settings.org_deploy_enabled).toBe(true);
    const types = (params: Record<string, { type: string; name: string }> | undefined) =>
      Object.fromEntries(
        Object.entries(params ?? {}).map(([key, param]) => {
          expect(param.name).toBe(key);
          return [key, param.type];
        }),
      );
    expect(types(step?.input_parameters)).toEqual({
      databases: 'string',
      window: 'string',
      top: 'integer',
      metric: 'string',
      stakeholders: 'string',
      person: 'slack#/types/user_id',
    });
    expect(step?.input_parameters.databases?.is_required).toBe(true);
    expect(types(step?.output_parameters)).toEqual({
      summary: 'string',
      top_handle: 'string',
      count: 'integer',
    });
  });

  it('grants the scopes every Web API call, event and feature needs, and no others', () => {
    const calls = webApiCallsInSource();
    expect(calls.length).toBeGreaterThan(0);
    const unknown = calls.filter((method) => !Object.hasOwn(webApiScopes, method));
    expect(unknown, 'Web API methods without an entry in src/slack/web-api/scopes.ts').toEqual([]);
    const needed = new Set<string>(featureScopes);
    for (const method of calls)
      for (const scope of webApiScopes[method as keyof typeof webApiScopes]) needed.add(scope);
    for (const event of manifest.settings.event_subscriptions.bot_events) {
      for (const scope of eventScopes[event as keyof typeof eventScopes] ?? ['unknown event'])
        needed.add(scope);
    }
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...needed].sort());
  });

  it('registers the digest feature and extra modules through the composition root', () => {
    const extra = recordRegistrations([(app) => void app.command('/extra', async () => {})]);
    expect(extra.commands).toContain('/extra');
    expect(extra.commands).toContain('/influencers');
    expect(extra.actions.some((id) => id.startsWith('digest'))).toBe(true);
    expect(extra.middleware).toBeGreaterThan(0);
  });

  it.each([
    ['client.chat.postMessage({ channel })', ['chat.postMessage']],
    ['this.#client.conversations.info({})', ['conversations.info']],
    ['backgroundClient.admin.apps.approve({})', ['admin.apps.approve']],
    ["client.apiCall('reactions.add', {})", ['reactions.add']],
    [
      'await client.filesUploadV2({ file })',
      ['files.completeUploadExternal', 'files.getUploadURLExternal'],
    ],
    ['await say({ text })', ['chat.postMessage']],
    ['analytics.getInfluencers(query)', []],
  ])('finds the Web API methods in %j', (source, expected) => {
    expect(webApiCallsIn(source)).toEqual(expected);
  });

  it('declares the MCP server for Slackbot with Slack identity auth at /mcp', () => {
    expect(manifest.mcp_servers).toEqual({
      influencers: { url: 'https://your-app.example.com/mcp', auth_type: 'slack_identity_auth' },
    });
    expect(manifest.oauth_config.scopes.bot).toContain('mcp:connect');
  });

  it('explains which fields to change for HTTP and for Socket Mode', () => {
    expect(manifestText).toContain('socket_mode_enabled: true');
    expect(manifestText.match(/your-app\.example\.com\/slack\/events/g)).toHaveLength(3);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });
});
