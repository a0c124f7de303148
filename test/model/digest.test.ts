import { describe, expect, it } from 'vitest';
import { normalizeDigestId } from '../../src/model/digest.ts';

describe('normalizeDigestId', () => {
  it.each([
    ['k7q2xd', 'K7Q2XD'],
    [' K7Q2XD ', 'K7Q2XD'],
    ['o1il23', '011123'],
    ['K7Q2X', undefined],
    ['K7Q2XU', undefined],
  ])('reads %s as %s', (typed, id) => {
    expect(normalizeDigestId(typed)).toBe(id);
  });
});
