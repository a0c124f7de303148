/** How many recently issued tokens are remembered for scrubbing; older ones have long expired. */
const rememberedTokens = 16;

/** How deep a `cause` chain is copied; deeper links are dropped. */
const maxCauseDepth = 4;

const credentialPattern = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;

/**
 * Keeps credentials out of error messages and `cause` chains. Errors from the HTTP stack are not
 * passed on as they are: they may hold request options (headers included) in their properties. A
 * cause is rebuilt as a plain Error carrying only name, code, message and stack, each scrubbed of
 * the client secret, the Basic value, every recently issued token and any `Bearer`/`Basic`
 * credential.
 */
export class SecretScrubber {
  readonly #fixed: readonly string[];
  readonly #tokens: string[] = [];

  constructor(secrets: readonly string[]) {
    this.#fixed = secrets.filter((secret) => secret.length > 0);
  }

  rememberToken(token: string): void {
    if (token.length === 0 || this.#tokens.includes(token)) return;
    this.#tokens.push(token);
    if (this.#tokens.length > rememberedTokens) this.#tokens.shift();
  }

  scrub(text: string): string {
    let result = text.replace(credentialPattern, '$1 [redacted]');
    for (const secret of [...this.#fixed, ...this.#tokens]) {
      if (result.includes(secret)) result = result.split(secret).join('[redacted]');
    }
    return result;
  }

  /** A copy of `error` safe to attach as a `cause`. */
  safeCause(error: unknown, depth = 0): Error {
    if (!(error instanceof Error)) return new Error(this.scrub(String(error)));
    const options =
      error.cause !== undefined && depth < maxCauseDepth
        ? { cause: this.safeCause(error.cause, depth + 1) }
        : undefined;
    const copy = new Error(this.scrub(error.message), options);
    copy.name = error.name;
    copy.stack = this.scrub(error.stack ?? `${error.name}: ${error.message}`);
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') {
      Object.defineProperty(copy, 'code', { value: code, enumerable: true });
    }
    return copy;
  }
}
