/**
 * How many MCP tool calls run at once, and how many may wait for their turn. A tool call can be
 * an export of 500 rows: asked of the service, checked, rendered as text and as data, then
 * serialized. A hundred of them at once held 100 MB and the event loop long enough to push Slack
 * acks past a second; a few at a time, the rest waiting in order, cost little but their wait.
 * Past the waiting room a call is refused at once, so a flood cannot queue without end.
 */

export interface ToolSlotLimits {
  /** Tool calls running at once. */
  readonly running: number;
  /** Tool calls waiting for a slot; one more is refused. */
  readonly waiting: number;
}

/**
 * Enough for a few people's agents at once. A tool call has no 3-second deadline and an ack does:
 * with 8 export calls running against a service answering in 2 s, acks on a busy machine were
 * many times slower than beside an idle `/mcp`; with 4, about twice.
 */
export const toolSlotLimits: ToolSlotLimits = { running: 4, waiting: 200 };

/** A slot given: `release` (idempotent) hands it to the next call waiting. */
export type SlotGrant =
  | { readonly kind: 'granted'; readonly release: () => void }
  /** The waiting room is full. */
  | { readonly kind: 'busy' }
  /** The signal aborted while the call waited (its client went away). */
  | { readonly kind: 'cancelled' };

export class ToolSlots {
  readonly #limits: ToolSlotLimits;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(limits: ToolSlotLimits = toolSlotLimits) {
    this.#limits = limits;
  }

  /** Tool calls holding a slot now. */
  get running(): number {
    return this.#running;
  }

  /** Tool calls waiting for one. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * A slot now when one is free, else once every call that asked earlier has had one; `busy` at
   * once when the waiting room is full, `cancelled` when `signal` aborts first.
   */
  acquire(signal?: AbortSignal): Promise<SlotGrant> {
    if (signal?.aborted) return Promise.resolve({ kind: 'cancelled' });
    if (this.#running < this.#limits.running) {
      this.#running += 1;
      return Promise.resolve(this.#grant());
    }
    if (this.#waiting.length >= this.#limits.waiting) return Promise.resolve({ kind: 'busy' });
    return new Promise((resolve) => {
      const turn = () => {
        signal?.removeEventListener('abort', leave);
        resolve(this.#grant());
      };
      const leave = () => {
        const at = this.#waiting.indexOf(turn);
        if (at >= 0) this.#waiting.splice(at, 1);
        resolve({ kind: 'cancelled' });
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.#waiting.push(turn);
    });
  }

  #grant(): SlotGrant {
    let released = false;
    return {
      kind: 'granted',
      release: () => {
        if (released) return;
        released = true;
        // The slot passes straight to the next call waiting: the count of running calls holds.
        const next = this.#waiting.shift();
        if (next === undefined) this.#running -= 1;
        else next();
      },
    };
  }
}
