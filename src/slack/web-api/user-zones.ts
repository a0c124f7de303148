import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import { timedOut, within } from '../../time/within.ts';
import { resolveZone } from '../../time/zone-names.ts';
import { slackFailure } from './client.ts';
import { UserDirectory } from './user-directory.ts';

export interface UserZone {
  /** IANA zone from the Slack profile, or `UTC` when it could not be read in time. */
  readonly zone: string;
  /** True when `zone` is the UTC fallback rather than the person's own zone. */
  readonly fallback: boolean;
  /** The person's Slack locale (`en-GB`), read with the zone; absent when it could not be. */
  readonly locale?: string;
}

export interface UserZonesOptions {
  readonly logger: Logger;
  /** How long a caller waits for users.info before using UTC; the lookup continues in the background. */
  readonly waitMs: number;
  /** The shared users.info cache; a private one when not given. */
  readonly directory?: UserDirectory;
}

/**
 * The person's Slack profile zone, so "yesterday" means their yesterday. The ack must not wait for
 * Slack's API longer than a bounded moment: past `waitMs` the caller gets UTC (and says so), while
 * the call finishes in the background and fills the cache for the next request.
 */
export class UserZones {
  readonly #directory: UserDirectory;
  readonly #logger: Logger;
  readonly #waitMs: number;

  constructor(options: UserZonesOptions) {
    this.#logger = options.logger;
    this.#waitMs = options.waitMs;
    this.#directory = options.directory ?? new UserDirectory();
  }

  async zoneOf(client: WebClient, userId: string): Promise<UserZone> {
    const found = await within(this.#fetch(client, userId), this.#waitMs);
    if (found === undefined || found === timedOut) return { zone: 'UTC', fallback: true };
    return { zone: found.zone, fallback: false, ...defined({ locale: found.locale }) };
  }

  async #fetch(
    client: WebClient,
    userId: string,
  ): Promise<{ zone: string; locale: string | undefined } | undefined> {
    try {
      const { tz, locale } = await this.#directory.get(client, userId);
      // Read as the parser reads zones, so the lookup runs in exactly this zone.
      const zone = tz === undefined ? undefined : resolveZone(tz);
      if (zone !== undefined) return { zone, locale };
      this.#logger.warn({ userId, zone: tz }, 'users.info gave no usable time zone; using UTC');
    } catch (error) {
      this.#logger.warn(
        { ...slackFailure(error, 'users.info'), userId },
        'users.info failed; using UTC',
      );
    }
    return undefined;
  }
}
