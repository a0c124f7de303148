import type { PollSchedule } from '../async/poll.ts';
import type { DigestService } from '../flows/digest-service.ts';
import type { LookupFlow } from '../flows/lookup/index.ts';
import type { Logger } from '../logger.ts';
import type { SeenRequests } from '../requests/seen-requests.ts';
import type { InFlight } from './process/in-flight.ts';
import type { SlackAccess } from './web-api/access.ts';
import type { AdminDirectory } from './web-api/digest-access.ts';
import type { UserZones } from './web-api/user-zones.ts';

/** What every listener may use; built once by `createApp`. */
export interface SlackDeps {
  readonly flow: LookupFlow;
  readonly logger: Logger;
  readonly zones: UserZones;
  readonly inFlight: InFlight;
  /** Request signatures and event ids already handled, across instances. */
  readonly seen: SeenRequests;
  /**
   * Slack access asked for by workspace: `slack.forTeam(teamId).chat` is that workspace's Web API
   * client without automatic retries, for the posts a person waits for in a conversation (a post
   * retried after a timeout or a 5xx may appear twice); `slack.fetch` is the fetch Bolt uses, for
   * response_url posts.
   */
  readonly slack: SlackAccess;
  /** Scheduled digests; their store opens before the app listens. */
  readonly digests: DigestService;
  /** Workspace admins may act on anyone's digest (users.info, cached). */
  readonly admins: AdminDirectory;
  /**
   * How often an instance running agent lookups asks the store whether Stop was pressed for one on
   * another instance, and on what timer; absent, every second (tests drive their own timer).
   */
  readonly stopPoll?: PollSchedule;
  /**
   * How a streamed answer waits out Slack's Retry-After before its stop (real timers when absent;
   * tests move a fake clock instead of waiting).
   */
  readonly sleep?: (ms: number) => Promise<void>;
}
