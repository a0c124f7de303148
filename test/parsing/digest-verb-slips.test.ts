import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';

const context = { now: new Date('2026-11-21T15:30:00Z'), zone: 'UTC' };

describe('parseDigestCommand: slips of verbs', () => {
  it.each([
    ['digest pasue abc123', 'pause', 'digest pause abc123'],
    ['digest delet abc123', 'delete', 'digest delete abc123'],
    ['digest resme abc123', 'resume', 'digest resume abc123'],
    ['digest lsit', 'list', 'digest list'],
  ])('reads %j as a slip of %j, offering the command with it', (text, verb, fixed) => {
    const error = parseDigestCommand(text, context);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toContain(`did you mean “${verb}”?`);
    expect((error as ParseError).message).toMatch(new RegExp(`Try: /influencers ${fixed}$`));
    expect(parseDigestCommand(fixed, context)).not.toBeInstanceOf(ParseError);
  });

  it('keeps a database near a verb a database when the command reads: "digest cancer every monday"', () => {
    expect(parseDigestCommand('digest cancer every monday at 9am', context)).toMatchObject({
      kind: 'create',
      spec: { databases: ['cancer'] },
    });
  });
});
