import { inspect } from 'node:util';

/**
 * A credential read from the environment. It prints as `[redacted]` through `String()`, JSON,
 * template literals and `util.inspect`, so logging a config object can never leak it; only
 * `reveal()` gives the value, at the one place that hands it to a library.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return '[redacted]';
  }

  toJSON(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return '[redacted]';
  }
}
