/**
 * The `state` of an install: signed with SLACK_STATE_SECRET, good for ten minutes and once. Bolt's
 * installer also binds it to the browser (a cookie); this store adds that it cannot be used twice,
 * by any instance: the first use is recorded in the store every instance shares.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { InstallURLOptions, StateStore } from '@slack/oauth';
import type { SightingRepository } from '../../store/sightings.ts';

/** How long an install may take from the install page to Slack's redirect back. */
export const stateTtlMs = 10 * 60_000;

export type StateProblem = 'forged' | 'expired' | 'replayed';

/** A state that is not one this app signed, is too old, or was used already. */
// Not an AppError: Bolt's installer hands it to the install routes, which turn it into a page.
export class StateRejectedError extends Error {
  readonly problem: StateProblem;

  constructor(problem: StateProblem) {
    super(`the install's state was ${problem}`);
    this.problem = problem;
  }
}

export interface SignedStateOptions {
  readonly secret: { reveal(): string };
  /** Where used states are recorded; asked for at each use (the store opens late). */
  readonly sightings: () => SightingRepository;
  /** What every install asks for: the state carries nothing else. */
  readonly installOptions: InstallURLOptions;
}

export function signedStateStore(options: SignedStateOptions): StateStore {
  const sign = (payload: string) =>
    createHmac('sha256', options.secret.reveal()).update(payload).digest('base64url');
  return {
    async generateStateParam(_installOptions, now) {
      const payload = `${randomBytes(16).toString('base64url')}.${now.getTime() + stateTtlMs}`;
      return `${payload}.${sign(payload)}`;
    },
    async verifyStateParam(now, state) {
      const [nonce, expiresAt, signature] = state.split('.');
      if (nonce === undefined || expiresAt === undefined || signature === undefined) {
        throw new StateRejectedError('forged');
      }
      const expected = Buffer.from(sign(`${nonce}.${expiresAt}`));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new StateRejectedError('forged');
      }
      if (!(Number(expiresAt) > now.getTime())) throw new StateRejectedError('expired');
      const first = await options
        .sightings()
        .firstSighting(`oauth-state:${nonce}`, now, stateTtlMs);
      if (!first) throw new StateRejectedError('replayed');
      return options.installOptions;
    },
  };
}
