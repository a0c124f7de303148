/** How many recently issued tokens are remembered for scrubbing; older ones have long expired. */
const rememberedTokens = 16;

/** How deep a `cause` chain is copied; deeper links are dropped. */
const maxCauseDepth = 4;

/**
 * Values shorter than this are never scrubbed: replacing them would garble ordinary words, and no
 * credential the service issues is that short.
 */
export const minScrubbedChars = 4;

/**
 * A secret cut short (by a service truncating its message, or by a parser quoting a few characters
 * of a body) is still scrubbed when at least this many of its first characters remain.
 */
export const minScrubbedPrefixChars = 8;

export const redactedMarker = '[redacted]';

const defaultAuthSchemes = ['Bearer', 'Basic'];

/**
 * Every form in which `secret` can come back inside a service message or an error: as it is,
 * percent-encoded (either hex case), form-encoded (space as `+`), form-decoded (`+` read as a
 * space), base64 and base64url, and JSON-escaped. Longest first, so a longer form is replaced
 * before a shorter one inside it.
 */
export function encodedForms(secret: string): string[] {
  if (secret.length < minScrubbedChars) return [];
  const percent = encodeURIComponent(secret);
  const form = new URLSearchParams([['', secret]]).toString().slice(1);
  const base64 = Buffer.from(secret).toString('base64');
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = [
    secret,
    percent,
    lowerHex(percent),
    form,
    lowerHex(form),
    secret.replaceAll('+', ' '),
    base64,
    base64.replace(/=+$/, ''),
    Buffer.from(secret).toString('base64url'),
    json,
    json.replaceAll('/', '\\/'),
  ];
  return [...new Set(forms)]
    .filter((value) => value.length >= minScrubbedChars)
    .sort((a, b) => b.length - a.length);
}

/**
 * Keeps credentials out of error messages and `cause` chains. Service messages are scrubbed whole,
 * before anything shortens them, of every encoded form of the client id, the client secret, the
 * Basic value and each recently issued token, including a form cut short after its first
 * {@link minScrubbedPrefixChars} characters; then of anything following an auth scheme word.
 *
 * Errors from the HTTP stack are not passed on as they are: they may hold request options (headers
 * included) in their properties. A cause is rebuilt as a plain Error carrying only name, code,
 * message and stack, each scrubbed.
 */
export class SecretScrubber {
  readonly #fixed: readonly string[];
  readonly #tokens: string[][] = [];
  readonly #credentialPattern: RegExp;

  /** `authSchemes` are added to Bearer and Basic: whatever follows one of them is a credential. */
  constructor(secrets: readonly string[], authSchemes: readonly string[] = []) {
    this.#fixed = longestFirst(secrets.flatMap(encodedForms));
    const schemes = [...new Set([...defaultAuthSchemes, ...authSchemes])]
      .filter((scheme) => scheme.trim() !== '')
      .map((scheme) => scheme.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.#credentialPattern = new RegExp(
      `\\b(${schemes.join('|')})(\\s+|%20|\\+)[A-Za-z0-9._~+/=%-]+`,
      'gi',
    );
  }

  rememberToken(token: string): void {
    const forms = encodedForms(token);
    if (forms.length === 0 || this.#tokens.some((known) => known[0] === forms[0])) return;
    this.#tokens.push(forms);
    if (this.#tokens.length > rememberedTokens) this.#tokens.shift();
  }

  /** `text` with every known credential, whole or cut short, replaced by `[redacted]`. */
  scrub(text: string): string {
    return redactSpans(text, this.#forms()).replace(
      this.#credentialPattern,
      `$1$2${redactedMarker}`,
    );
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

  #forms(): string[] {
    if (this.#tokens.length === 0) return [...this.#fixed];
    return longestFirst([...this.#fixed, ...this.#tokens.flat()]);
  }
}

/**
 * Replaces every occurrence of a form, or of a prefix of one at least `minScrubbedPrefixChars`
 * long. Where forms overlap (a raw secret is a prefix of its JSON-escaped form) the widest match
 * wins, so no tail of a secret is left behind.
 */
function redactSpans(text: string, forms: readonly string[]): string {
  const spans: [number, number][] = [];
  for (const form of forms) {
    const head = form.slice(0, minScrubbedPrefixChars);
    for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, at + 1)) {
      let end = at + head.length;
      while (end - at < form.length && text[end] === form[end - at]) end += 1;
      spans.push([at, end]);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let result = '';
  let from = 0;
  for (const [start, end] of spans) {
    if (start >= from) {
      result += `${text.slice(from, start)}${redactedMarker}`;
      from = end;
    } else if (end > from) {
      from = end;
    }
  }
  return result + text.slice(from);
}

function lowerHex(encoded: string): string {
  return encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
}

function longestFirst(forms: readonly string[]): string[] {
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}
