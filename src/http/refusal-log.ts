/**
 * The log of a door's refusals (the front door's, the MCP endpoint's). A refusal after a quiet spell is logged at once, so that a
 * misconfigured sender (a wrong signing secret, a clock far off) shows up straight away; the ones
 * that follow within the next `windowMs` are counted and logged as one line per window. A flood of
 * hostile requests (hundreds a second) then writes one line every few seconds instead of hundreds,
 * which would crowd everything else out of a log drain with a bounded buffer (Heroku's drops lines
 * when it overflows) and cost about 20 µs of the event loop each.
 */
import type { Logger } from '../logger.ts';

/** How long refusals are counted before their summary is logged. */
export const refusalSummaryMs = 10_000;

/** Runs `end` once `ms` have passed; the default timer never keeps the process alive. */
export type WindowTimer = (end: () => void, ms: number) => void;

const unrefTimer: WindowTimer = (end, ms) => {
  setTimeout(end, ms).unref();
};

export interface RefusalRecord {
  readonly status: number;
  readonly reason: string;
}

export class RefusalLog {
  readonly #logger: Logger;
  readonly #windowMs: number;
  /** Refusals since the last line, by reason. */
  readonly #counts = new Map<string, number>();
  readonly #timer: WindowTimer;
  #counting = false;

  constructor(logger: Logger, windowMs = refusalSummaryMs, timer: WindowTimer = unrefTimer) {
    this.#logger = logger;
    this.#windowMs = windowMs;
    this.#timer = timer;
  }

  record(refusal: RefusalRecord): void {
    if (!this.#counting) {
      this.#logger.info(
        { status: refusal.status, reason: refusal.reason },
        'refused a request to /slack/events',
      );
      this.#open();
      return;
    }
    const key = `${refusal.status} ${refusal.reason}`;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }

  #open(): void {
    this.#counting = true;
    this.#timer(() => this.#close(), this.#windowMs);
  }

  /** Logs what the window counted and opens the next one; a window that counted nothing ends. */
  #close(): void {
    this.#counting = false;
    if (this.#counts.size === 0) return;
    const reasons = Object.fromEntries(this.#counts);
    const refused = [...this.#counts.values()].reduce((sum, count) => sum + count, 0);
    this.#counts.clear();
    this.#logger.info(
      { refused, reasons, windowMs: this.#windowMs },
      'refused more requests to /slack/events',
    );
    this.#open();
  }
}
