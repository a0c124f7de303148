import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  offendingDatabase,
  parseRetryAfter,
  readErrorBody,
} from '../../src/analytics/responses.ts';

const nowMs = Date.parse('2026-03-18T09:30:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['120', 120_000],
    [' 3 ', 3_000],
    ['0', 0],
    ['Wed, 18 Mar 2026 09:30:05 GMT', 5_000],
    ['Wed, 18 Mar 2026 09:29:00 GMT', 0],
    [undefined, undefined],
    ['', undefined],
    ['soon', undefined],
    ['-5', undefined],
    ['1.5', undefined],
  ])('reads %j as %j ms', (value, expected) => {
    expect(parseRetryAfter(value, nowMs)).toBe(expected);
  });
});

describe('backoffDelayMs', () => {
  it.each([
    [0, 1, 500],
    [1, 1, 1_000],
    [2, 1, 2_000],
    [5, 1, 15_000],
    [10, 1, 15_000],
    [2, 0.5, 1_000],
    [3, 0, 0],
  ])('waits up to base * 2^%i, scaled by random %f, capped: %i ms', (retry, random, expected) => {
    expect(backoffDelayMs(retry, 500, 15_000, () => random)).toBe(expected);
  });
});

describe('readErrorBody', () => {
  it.each([
    ['{"message":"Unknown database: #x","database":"#x"}', 'Unknown database: #x', '#x'],
    [
      '{"error":"invalid_client","error_description":"Client authentication failed"}',
      'Client authentication failed',
      undefined,
    ],
    ['{"error":"invalid_request"}', 'invalid_request', undefined],
    ['{"detail":42}', undefined, undefined],
    ['', undefined, undefined],
    ['  \r\n ', undefined, undefined],
    ['Service down\nfor maintenance', 'Service down for maintenance', undefined],
    ['{not json', '{not json', undefined],
  ])('reads %j', (text, message, database) => {
    expect(readErrorBody(text, 'application/json')).toEqual({ message, database });
  });

  it('reduces an HTML page to its title', () => {
    const page =
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>';
    expect(readErrorBody(page, 'text/html').message).toBe('502 Bad Gateway');
  });

  it('strips the tags of an HTML page without a title and bounds its length', () => {
    const page = `<!DOCTYPE html><html><body><script>var x = 1;</script><p>${'Oops '.repeat(100)}</p></body></html>`;
    const { message } = readErrorBody(page, undefined);
    expect(message).not.toMatch(/[<>]/);
    expect(message).not.toContain('var x');
    expect(message?.length).toBe(200);
    expect(message?.endsWith('…')).toBe(true);
  });
});

describe('offendingDatabase', () => {
  const databases = ['#hcsm', '#hcsmeu', 'breast cancer'];

  it('takes the body database field first', () => {
    expect(offendingDatabase({ message: 'about #hcsm', database: 'group:X' }, databases)).toBe(
      'group:X',
    );
  });

  it('finds the longest requested item the message names', () => {
    expect(
      offendingDatabase({ message: 'No access to #HCSMEU', database: undefined }, databases),
    ).toBe('#hcsmeu');
    expect(
      offendingDatabase(
        { message: 'Unknown predicate breast cancer', database: undefined },
        databases,
      ),
    ).toBe('breast cancer');
  });

  it('is undefined when the message names no requested item', () => {
    expect(
      offendingDatabase({ message: 'Forbidden', database: undefined }, databases),
    ).toBeUndefined();
    expect(
      offendingDatabase({ message: undefined, database: undefined }, databases),
    ).toBeUndefined();
  });
});
