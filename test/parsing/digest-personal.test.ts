import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';

const now = new Date('2026-11-21T15:30:00Z');
const read = (text: string) => parseDigestCommand(text, { now, zone: 'America/New_York' });

describe('digest … to me', () => {
  it.each([
    'digest #hcsm every monday at 9am to me',
    'digest #hcsm to me every monday at 9am',
    'digest #hcsm every monday at 9am to my dm',
    'digest #hcsm every monday at 9am by dm',
    'watch #hcsm top 10 to me',
  ])('reads %j as delivered to its creator', (text) => {
    expect(read(text)).toMatchObject({ kind: 'create', spec: { toMe: true } });
  });

  it('keeps a range of days that ends with to', () => {
    expect(read('digest #hcsm mon to fri at 9am')).toMatchObject({
      spec: { schedule: { expression: '0 9 * * 1-5' } },
    });
  });

  it('refuses to move a digest to the DM in an edit', () => {
    const error = read('digest edit 7K3M9Q to me');
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toContain('An edit keeps where a digest posts');
  });
});

describe('digest history <id>', () => {
  it.each(['digest history 7K3M9Q', 'digest runs 7k3m9q', 'digest history 7K3M9O'])(
    'reads %j',
    (text) => {
      expect(read(text)).toEqual({ kind: 'history', id: text.endsWith('O') ? '7K3M90' : '7K3M9Q' });
    },
  );

  it('asks for the id when it is missing', () => {
    expect(read('digest history')).toBeInstanceOf(ParseError);
  });
});
