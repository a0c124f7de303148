/** What a conference's posts are made with, built once by the runner for every conference. */
import type { Logger } from '../../logger.ts';
import type { ConferenceRepository } from '../../store/conferences.ts';
import type { Clock } from '../clock.ts';
import type { PerTeam } from '../per-team.ts';
import type { ConferencePoster, ConferenceWords } from './outlet.ts';

/** What posting uses, built once by the runner and shared by every conference of a tick. */
export interface PostParts {
  readonly owner: string;
  readonly store: ConferenceRepository;
  /** Where each workspace's conferences post, edit and pin. */
  readonly posters: PerTeam<ConferencePoster>;
  readonly words: ConferenceWords;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Slack calls go through it, a bounded number at once. */
  slack<T>(job: () => Promise<T>): Promise<T>;
}
