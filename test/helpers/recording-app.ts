import type { App } from '@slack/bolt';
import { silentLogger } from '../../src/logger.ts';
import { createExtensions, SeenEvents, type SlackDeps } from '../../src/slack/deps.ts';
import { InFlight } from '../../src/slack/in-flight.ts';
import { register } from '../../src/slack/index.ts';
import type { LookupFlow } from '../../src/slack/lookup-flow.ts';
import type { UserZones } from '../../src/slack/user-zone.ts';

export interface Registrations {
  readonly commands: string[];
  readonly events: string[];
  readonly actions: string[];
  readonly views: string[];
  readonly middleware: number;
}

/** Runs the real `register` against an App stand-in that only records what was registered. */
export function recordRegistrations(): Registrations {
  const seen: Registrations = { commands: [], events: [], actions: [], views: [], middleware: 0 };
  const asId = (id: unknown) => (typeof id === 'string' ? id : JSON.stringify(id));
  const app = {
    use: () => {
      (seen as { middleware: number }).middleware += 1;
      return app;
    },
    command: (name: unknown) => seen.commands.push(asId(name)),
    event: (name: unknown) => seen.events.push(asId(name)),
    message: () => seen.events.push('message'),
    action: (id: unknown) => seen.actions.push(asId(id)),
    view: (id: unknown) => seen.views.push(asId(id)),
    shortcut: (id: unknown) => seen.actions.push(asId(id)),
  };
  const deps: SlackDeps = {
    flow: {} as LookupFlow,
    logger: silentLogger,
    zones: {} as UserZones,
    inFlight: new InFlight(),
    seenEvents: new SeenEvents(),
    fetch: globalThis.fetch,
    extensions: createExtensions(),
  };
  register(app as unknown as App, deps, []);
  return seen;
}
