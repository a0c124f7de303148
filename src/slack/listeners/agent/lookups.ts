/**
 * The agent lookups this instance runs, so that Stop reaches each one whichever instance Slack
 * sends it to. Stop for a lookup running here aborts it at once. Otherwise the store records the
 * request against the lookup's record, and the instance running it, which asks the store every
 * second or so while it runs agent lookups (never otherwise), aborts it there: the person sees
 * the same answer either way. Each record is renewed by those polls, so the record of an instance
 * that died lapses and Stop is then known to reach nothing.
 * Without the store (it fails, or keeps no agent records) Stop reaches the lookups of this
 * instance only, as it did before the store kept them.
 */
import { randomUUID } from 'node:crypto';
import { Poll, type PollSchedule, realTimer } from '../../../async/poll.ts';
import type { Logger } from '../../../logger.ts';
import type { AgentState, AgentThreadKey } from '../../../store/agent-state.ts';
import { askAgentState, type unknown } from './state.ts';

/** How often an instance running agent lookups asks the store for Stop pressed elsewhere. */
export const stopPollMs = 1_000;
/**
 * How long a lookup's record outlives the last poll that renewed it: several polls missed, so a
 * busy instance keeps its records, and a dead one's lapse within half a minute.
 */
export const runningLeaseMs = 30_000;

/** Where Stop found the thread's lookup. */
export type StopReach = 'here' | 'elsewhere' | 'none';

export interface AgentLookupsOptions {
  /** The store's agent records; undefined until the store opens, or where it keeps none. */
  readonly state: () => AgentState | undefined;
  readonly logger: Logger;
  readonly now: () => Date;
  /** What a stopped lookup's signal is aborted with (the flow tells Stop from shutdown by it). */
  readonly reason: unknown;
  /** Default: every {@link stopPollMs} on real timers. */
  readonly poll?: PollSchedule;
}

interface Running {
  readonly id: string;
  readonly thread: AgentThreadKey;
  readonly controller: AbortController;
}

export class AgentLookups {
  /** Names this instance's lookups in the store. */
  readonly owner = `agent-${randomUUID()}`;
  readonly #options: AgentLookupsOptions;
  /** The latest lookup of each thread, by thread. */
  readonly #latest = new Map<string, Running>();
  /** Every lookup running here, by id: those a Stop from elsewhere may name. */
  readonly #byId = new Map<string, Running>();
  readonly #poll: Poll;
  #pollFailing = false;

  constructor(options: AgentLookupsOptions) {
    this.#options = options;
    this.#poll = new Poll(() => this.#stopsFromElsewhere(), {
      everyMs: stopPollMs,
      timer: realTimer,
      ...options.poll,
    });
  }

  /** Whether this instance is asking the store for stops (only while it runs agent lookups). */
  get polling(): boolean {
    return this.#poll.active;
  }

  /**
   * A controller for the thread's lookup that Stop aborts, wherever it is pressed; the previous one
   * of the thread, if any still runs, is left to finish. `release` forgets it once the lookup
   * ended. Recorded in the store before it resolves, so a Stop pressed once Slack shows the
   * button finds it.
   */
  async start(
    channel: string,
    threadTs: string,
  ): Promise<{ signal: AbortSignal; release: () => Promise<void> }> {
    const thread = { channel, threadTs };
    const key = threadKey(thread);
    const running: Running = { id: randomUUID(), thread, controller: new AbortController() };
    this.#latest.set(key, running);
    this.#byId.set(running.id, running);
    const unhold = this.#poll.hold();
    await this.#ask('could not record an agent lookup for Stop', (state) =>
      state.lookupStarted(
        { ...thread, runId: running.id, owner: this.owner },
        this.#options.now(),
        runningLeaseMs,
      ),
    );
    return {
      signal: running.controller.signal,
      release: async () => {
        if (this.#latest.get(key) === running) this.#latest.delete(key);
        if (!this.#byId.delete(running.id)) return;
        unhold();
        // Also when recording it failed: a write that was only slow may have landed since.
        await this.#ask('could not forget an agent lookup', (state) =>
          state.lookupEnded(running.id),
        );
      },
    };
  }

  /**
   * Stops the thread's lookup: aborted here when it runs here, else asked of the instance running
   * it through the store. `none` when no instance runs one (or the store cannot say).
   */
  async stop(channel: string, threadTs: string): Promise<StopReach> {
    const thread = { channel, threadTs };
    const running = this.#latest.get(threadKey(thread));
    if (running !== undefined) {
      running.controller.abort(this.#options.reason);
      return 'here';
    }
    const asked = await this.#ask(
      'could not pass Stop on to the instance running the lookup',
      (state) => state.requestStop(thread, this.#options.now()),
    );
    return asked === true ? 'elsewhere' : 'none';
  }

  /** One poll: renews this instance's records and aborts the lookups stopped elsewhere. */
  async #stopsFromElsewhere(): Promise<void> {
    if (this.#byId.size === 0) return;
    let stopped: string[];
    try {
      const state = this.#options.state();
      if (state === undefined) return;
      stopped = await state.stopsFor(this.owner, this.#options.now(), runningLeaseMs);
    } catch (error) {
      // Logged when polls start failing, not every second while the store is down.
      if (!this.#pollFailing) {
        this.#options.logger.warn({ err: error }, 'could not ask the store for Stop pressed');
      }
      this.#pollFailing = true;
      return;
    }
    this.#pollFailing = false;
    for (const id of stopped) {
      const running = this.#byId.get(id);
      if (running === undefined || running.controller.signal.aborted) continue;
      this.#options.logger.info(
        { channel: running.thread.channel },
        'stopping a lookup at the person’s request, pressed on another instance',
      );
      running.controller.abort(this.#options.reason);
    }
  }

  /** A store call whose failure leaves Stop to this instance. */
  #ask<T>(failure: string, call: (state: AgentState) => Promise<T>): Promise<T | typeof unknown> {
    return askAgentState(this.#options.state, this.#options.logger, failure, call);
  }
}

function threadKey(thread: AgentThreadKey): string {
  return `${thread.channel}:${thread.threadTs}`;
}
