import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';

const context = { now: new Date('2026-11-21T15:30:00Z'), zone: 'America/New_York' };

describe('a digest that would keep nobody', () => {
  it.each([
    'digest #hcsm every monday doctors no doctors',
    'digest #hcsm every monday at 9am only doctors excluding doctors',
    'watch #hcsm every monday pharma no pharma',
    'digest edit 7K3M9Q doctors no doctors',
  ])('refuses %j, as the Edit form does', (text) => {
    const parsed = parseDigestCommand(text, context);
    expect(parsed).toBeInstanceOf(ParseError);
    const message = (parsed as ParseError).message;
    expect(message).toMatch(/keeps and leaves out the same people \((Doctor|Org\. Pharma)/);
  });

  it('still reads people kept and others left out', () => {
    const parsed = parseDigestCommand('digest #hcsm every monday doctors no pharma', context);
    expect(parsed).not.toBeInstanceOf(ParseError);
    expect(parsed).toMatchObject({
      kind: 'create',
      spec: { stakeholders: { include: ['Doctor'], exclude: ['Org. Pharma'] } },
    });
  });
});

describe('a digest sent to a DM that keeps a channel canvas', () => {
  it('is refused at creation, as the Edit form offers a DM no canvas', () => {
    const parsed = parseDigestCommand('digest #hcsm every monday at 9am to me canvas', context);
    expect(parsed).toBeInstanceOf(ParseError);
    expect((parsed as ParseError).message).toContain('keeps no channel canvas');
  });
});
