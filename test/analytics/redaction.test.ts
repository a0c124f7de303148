import { describe, expect, it } from 'vitest';
import { encodedForms, SecretScrubber } from '../../src/analytics/redaction.ts';
import { readErrorBody } from '../../src/analytics/responses.ts';

const clientId = 'hcsm bot/client';
const secret = 'S3cr3t+Val/ue=Zq9';
const basicValue = Buffer.from(`${clientId}:${secret}`).toString('base64');
const token = 'tok_ABC+def/GHI=jkl.0123456789';

function scrubber(): SecretScrubber {
  const result = new SecretScrubber([secret, clientId, basicValue], ['Token']);
  result.rememberToken(token);
  return result;
}

describe('encodedForms', () => {
  it('lists every form a secret can come back in, longest first', () => {
    expect(encodedForms(secret)).toEqual([
      'UzNjcjN0K1ZhbC91ZT1acTk=',
      'S3cr3t%2BVal%2Fue%3DZq9',
      'S3cr3t%2bVal%2fue%3dZq9',
      'UzNjcjN0K1ZhbC91ZT1acTk',
      'S3cr3t+Val\\/ue=Zq9',
      'S3cr3t+Val/ue=Zq9',
      'S3cr3t Val/ue=Zq9',
    ]);
  });

  it('writes a space as + in the form encoding and as %20 in the percent encoding', () => {
    expect(encodedForms(clientId)).toEqual(
      expect.arrayContaining(['hcsm%20bot%2Fclient', 'hcsm+bot%2Fclient', 'hcsm+bot%2fclient']),
    );
  });

  it('has no form for a value too short to be a credential', () => {
    expect(encodedForms('abc')).toEqual([]);
  });
});

describe('SecretScrubber.scrub', () => {
  it.each([
    ['the raw secret', `bad secret ${secret}!`, 'bad secret [redacted]!'],
    [
      'the percent-encoded secret',
      'client_secret=S3cr3t%2BVal%2Fue%3DZq9&x=1',
      'client_secret=[redacted]&x=1',
    ],
    [
      'lower-case percent escapes',
      'client_secret=S3cr3t%2bVal%2fue%3dZq9',
      'client_secret=[redacted]',
    ],
    [
      'the secret read back from a form (+ as a space)',
      'secret S3cr3t Val/ue=Zq9 refused',
      'secret [redacted] refused',
    ],
    ['the secret in base64', 'got UzNjcjN0K1ZhbC91ZT1acTk=', 'got [redacted]'],
    ['the JSON-escaped secret', '{"s":"S3cr3t+Val\\/ue=Zq9"}', '{"s":"[redacted]"}'],
    ['the client id', `unknown client ${clientId}`, 'unknown client [redacted]'],
    ['the percent-encoded client id', 'client_id=hcsm%20bot%2Fclient', 'client_id=[redacted]'],
    [
      'the form-encoded client id',
      'client_id=hcsm+bot%2Fclient&grant',
      'client_id=[redacted]&grant',
    ],
    [
      'the decoded Basic value',
      `failed for ${clientId}:${secret}`,
      'failed for [redacted]:[redacted]',
    ],
    ['the Basic value', `header Basic ${basicValue}`, 'header Basic [redacted]'],
    ['the Basic value alone', `value ${basicValue}.`, 'value [redacted].'],
    ['a remembered token', `token ${token} expired`, 'token [redacted] expired'],
    ['a percent-encoded token', `token=${encodeURIComponent(token)}`, 'token=[redacted]'],
    [
      'an unknown Bearer credential',
      'auth Bearer abc.DEF-123 refused',
      'auth Bearer [redacted] refused',
    ],
    [
      'a credential after the configured scheme',
      'auth Token zz9-x refused',
      'auth Token [redacted] refused',
    ],
    ['a form-encoded Bearer credential', 'h=Bearer+abc123', 'h=Bearer+[redacted]'],
    ['a secret cut short by the service', 'secret S3cr3t+Val…', 'secret [redacted]…'],
    [
      'a token cut short by a parser',
      '"tok_ABC+def"... is not valid JSON',
      '"[redacted]"... is not valid JSON',
    ],
  ])('replaces %s', (_name, text, expected) => {
    expect(scrubber().scrub(text)).toBe(expected);
  });

  it('leaves fewer leading characters than the prefix minimum alone', () => {
    expect(scrubber().scrub('S3cr3t+ and tok_ABC')).toBe('S3cr3t+ and tok_ABC');
  });

  it('leaves text without credentials unchanged', () => {
    const text = 'Unknown database: #hcsm (see https://example.org/docs?a=1&b=2)';
    expect(scrubber().scrub(text)).toBe(text);
  });

  it('never scrubs values too short to be credentials', () => {
    const short = new SecretScrubber(['id', 'abc']);
    expect(short.scrub('invalid abc id')).toBe('invalid abc id');
  });

  it('forgets the oldest of more than 16 remembered tokens', () => {
    const scrub = new SecretScrubber([]);
    const tokens = Array.from(
      { length: 17 },
      (_, index) => `${String(index).padStart(2, '0')}-issued-token`,
    );
    for (const issued of tokens) scrub.rememberToken(issued);
    expect(scrub.scrub(tokens.join(' '))).toBe(`${tokens[0]}${' [redacted]'.repeat(16)}`);
  });
});

describe('SecretScrubber.safeCause', () => {
  it('rebuilds a cause chain with scrubbed messages and stacks, keeping names and codes', () => {
    const inner = Object.assign(new Error(`connect failed for ${basicValue}`), {
      code: 'ECONNRESET',
      headers: { authorization: `Basic ${basicValue}` },
    });
    const outer = Object.assign(new TypeError(`fetch failed: ${secret}`, { cause: inner }), {
      code: 'UND_ERR_SOCKET',
    });
    const copy = scrubber().safeCause(outer);
    expect(copy).toMatchObject({
      name: 'TypeError',
      message: 'fetch failed: [redacted]',
      code: 'UND_ERR_SOCKET',
    });
    expect(copy.stack).not.toContain(secret);
    expect(copy.stack?.startsWith('TypeError: fetch failed: [redacted]')).toBe(true);
    const cause = copy.cause as Error & { code?: string; headers?: unknown };
    expect(cause.message).toBe('connect failed for [redacted]');
    expect(cause.code).toBe('ECONNRESET');
    expect(cause.headers).toBeUndefined();
  });

  it('turns a thrown non-Error into a scrubbed Error', () => {
    expect(scrubber().safeCause(`raw ${token}`).message).toBe('raw [redacted]');
  });

  it('drops links deeper than four causes', () => {
    let error = new Error('deepest');
    for (let level = 5; level >= 0; level -= 1)
      error = new Error(`level ${level}`, { cause: error });
    let depth = 0;
    for (
      let link: unknown = scrubber().safeCause(error);
      link instanceof Error;
      link = link.cause
    ) {
      depth += 1;
    }
    expect(depth).toBe(5);
  });
});

describe('readErrorBody with a scrubber', () => {
  const scrub = (text: string) => scrubber().scrub(text);

  it.each([180, 190, 195])(
    'scrubs a message before shortening it when the secret starts at %i',
    (padding) => {
      const text = JSON.stringify({
        message: `${'x'.repeat(padding - 1)} ${secret} trailing words`,
      });
      const { message } = readErrorBody(text, 'application/json', scrub);
      expect(message?.length).toBeLessThanOrEqual(200);
      expect(message).not.toMatch(/S3cr3t/);
      expect(message).toMatch(/x \[re/);
    },
  );

  it('scrubs an HTML title and the database field', () => {
    const page = `<html><head><title>Not found ${token}</title></head></html>`;
    expect(readErrorBody(page, 'text/html', scrub).message).toBe('Not found [redacted]');
    const json = JSON.stringify({ message: 'no', database: secret });
    expect(readErrorBody(json, 'application/json', scrub).database).toBe('[redacted]');
  });
});
