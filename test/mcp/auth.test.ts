import { describe, expect, it } from 'vitest';
import { bearerOf } from '../../src/mcp/endpoint.ts';
import { slackPerson } from '../../src/mcp/tools.ts';

describe('bearerOf', () => {
  it.each([
    ['Bearer abc123', 'abc123'],
    ['bearer  abc123 ', 'abc123'],
    ['Basic abc123', undefined],
    ['Bearer', undefined],
    ['Bearer two words', undefined],
    [undefined, undefined],
  ])('reads %j as %j', (header, token) => {
    expect(bearerOf(header)).toBe(token);
  });
});

describe('slackPerson', () => {
  it('reads the user, team and organization Slack puts in _meta.slack', () => {
    expect(slackPerson({ slack: { user_id: 'U1', team_id: 'T1', enterprise_id: 'E1' } })).toEqual({
      userId: 'U1',
      teamId: 'T1',
      enterpriseId: 'E1',
    });
    expect(slackPerson({ slack: { user_id: 'U1', team_id: 'T1' } })).toEqual({
      userId: 'U1',
      teamId: 'T1',
    });
  });

  it.each([
    undefined,
    null,
    {},
    { slack: 'U1' },
    { slack: { user_id: 'U1' } },
    { slack: { user_id: '', team_id: 'T1' } },
    { slack: { user_id: 7, team_id: 'T1' } },
  ])('names nobody from %j', (meta) => {
    expect(slackPerson(meta)).toBeUndefined();
  });
});
