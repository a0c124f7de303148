import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';

const now = new Date('2026-11-21T15:30:00Z');
const read = (text: string) => parseDigestCommand(text, { now, zone: 'America/New_York' });

describe('watch @handle', () => {
  it.each([
    ['watch @DrFerreiraI in #hcsm', 'DrFerreiraI', 10, '0 * * * *'],
    ['watch @DrFerreiraI #hcsm', 'DrFerreiraI', 10, '0 * * * *'],
    ['watch @dr_ana on "breast cancer" top 20 at 9am', 'dr_ana', 20, '0 9 * * *'],
  ])('reads %j as a watch of that one account', (text, account, top, expression) => {
    expect(read(text)).toMatchObject({
      kind: 'create',
      spec: { account, top, postWhen: 'new', schedule: { expression } },
    });
  });

  it('keeps a plain watch without an account', () => {
    const plain = read('watch #hcsm top 10');
    expect(plain).toMatchObject({ kind: 'create', spec: { postWhen: 'new' } });
    expect(
      !(plain instanceof ParseError) && plain.kind === 'create' && 'account' in plain.spec,
    ).toBe(false);
  });

  it.each([
    [
      'digest @DrFerreiraI in #hcsm every monday',
      'To follow one account, watch it: a watch of @DrFerreiraI sends you a DM when it enters or leaves the top 10. Try: /influencers watch @DrFerreiraI in #hcsm',
    ],
    [
      'watch @dr-ana in #hcsm',
      '“@dr-ana” is not an X handle: a handle is @ and up to 15 letters, digits or underscores. Try: /influencers watch @DrFerreiraI in #hcsm',
    ],
  ])('refuses %j', (text, message) => {
    const refused = read(text);
    expect(refused).toBeInstanceOf(ParseError);
    expect(refused instanceof ParseError && refused.message).toBe(message);
  });
});
