import { describe, expect, it } from 'vitest';
import { readDatabaseToken, tokenize } from '../../src/parsing/index.ts';

describe('readDatabaseToken', () => {
  it.each([
    ['#hcsm', { kind: 'item', name: '#hcsm' }],
    ['4711', { kind: 'item', name: '4711' }],
    ['Group:Oncology', { kind: 'item', name: 'group:Oncology' }],
    ['cancer', { kind: 'word' }],
    [',', { kind: 'separator' }],
  ])('reads %s', (text, expected) => {
    expect(readDatabaseToken(tokenize(text)[0] as ReturnType<typeof tokenize>[number])).toEqual(
      expected,
    );
  });
});
