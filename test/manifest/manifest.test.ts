import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { eventScopes, featureScopes, webApiScopes } from '../../src/slack/scopes.ts';
import { recordRegistrations } from '../helpers/recording-app.ts';

const root = new URL('../../', import.meta.url);
const manifestText = readFileSync(new URL('manifest.yml', root), 'utf8');
const manifest = parse(manifestText) as {
  features: {
    slash_commands: { command: string; should_escape?: boolean; usage_hint?: string }[];
    app_home: Record<string, boolean>;
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { bot_events: string[]; request_url?: string };
    interactivity: { is_enabled: boolean };
    socket_mode_enabled: boolean;
  };
};

/** Web API methods called anywhere under src/slack, as `client.<family>.<method>(`. */
function webApiCallsInSource(): string[] {
  const dir = new URL('src/slack/', root).pathname;
  const methods = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true }) as string[]) {
    if (!file.endsWith('.ts')) continue;
    const source = readFileSync(join(dir, file), 'utf8');
    for (const match of source.matchAll(/\bclient\.([a-z]+)\.([a-zA-Z]+)\(/g)) {
      methods.add(`${match[1]}.${match[2]}`);
    }
  }
  return [...methods].sort();
}

describe('manifest.yml', () => {
  it('validates against the Slack app manifest schema', () => {
    const schemaUrl = new URL('../../../shared/slack/manifest.schema.1.0.0.json', import.meta.url);
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
    const events = registered.events.map((event) => (event === 'message' ? 'message.im' : event));
    expect([...new Set(events)].sort()).toEqual(
      [...manifest.settings.event_subscriptions.bot_events].sort(),
    );
    expect(registered.actions.length + registered.views.length).toBeGreaterThan(0);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
  });

  it('grants the scopes every Web API call, event and feature needs, and no others', () => {
    const calls = webApiCallsInSource();
    expect(calls.length).toBeGreaterThan(0);
    for (const method of calls) expect(Object.keys(webApiScopes)).toContain(method);
    const needed = new Set<string>(featureScopes);
    for (const method of calls)
      for (const scope of webApiScopes[method as keyof typeof webApiScopes]) needed.add(scope);
    for (const event of manifest.settings.event_subscriptions.bot_events) {
      for (const scope of eventScopes[event as keyof typeof eventScopes] ?? ['unknown event'])
        needed.add(scope);
    }
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...needed].sort());
  });

  it('explains which fields to change for HTTP and for Socket Mode', () => {
    expect(manifestText).toContain('socket_mode_enabled: true');
    expect(manifestText.match(/your-app\.example\.com\/slack\/events/g)).toHaveLength(3);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });
});
