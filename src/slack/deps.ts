import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { LRUCache } from 'lru-cache';
import type { LookupFlow } from '../flows/lookup.ts';
import type { Logger } from '../logger.ts';
import type { InFlight } from './support/in-flight.ts';
import type { UserZones } from './web-api/user-zones.ts';

/** `/influencers <verb> <rest>` handed to another module; it must ack within 3 s itself. */
export type Subcommand = (
  args: SlackCommandMiddlewareArgs & AllMiddlewareArgs,
  rest: string,
) => Promise<void>;

/** Who is looking at the Home tab: sections show what belongs to this person in this workspace. */
export interface HomeViewer {
  readonly userId: string;
  readonly teamId: string | undefined;
}

/** Blocks another module adds to a person's Home tab (after the lookup section). */
export type HomeSection = (viewer: HomeViewer, client: WebClient) => Promise<KnownBlock[]>;

/**
 * Seams for features built on top of lookups: a module registers its verbs and Home tab sections
 * here from its own `register(app, deps)`, and the handlers in this folder route to them.
 */
export interface SlackExtensions {
  readonly subcommands: Map<string, Subcommand>;
  readonly homeSections: HomeSection[];
}

export interface SlackDeps {
  readonly flow: LookupFlow;
  readonly logger: Logger;
  readonly zones: UserZones;
  readonly inFlight: InFlight;
  readonly seenEvents: SeenEvents;
  /** The same fetch Bolt uses, for response_url posts. */
  readonly fetch: typeof fetch;
  readonly extensions: SlackExtensions;
}

export function createExtensions(): SlackExtensions {
  return { subcommands: new Map(), homeSections: [] };
}

/**
 * Event ids already handled. Slack redelivers an event it thinks was not acknowledged (with
 * `x-slack-retry-num`); remembering ids for an hour answers each one once.
 */
export class SeenEvents {
  readonly #ids = new LRUCache<string, true>({ max: 50_000, ttl: 3_600_000 });

  /** True the first time an id is seen; false for every redelivery. */
  firstTime(eventId: string | undefined): boolean {
    if (eventId === undefined) return true;
    if (this.#ids.has(eventId)) return false;
    this.#ids.set(eventId, true);
    return true;
  }
}
