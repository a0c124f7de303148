import { describe, expect, it } from 'vitest';
import {
  isAllowedRequest,
  requestEnterpriseId,
  requestTeamId,
} from '../../../src/slack/middleware/team-guard.ts';

describe('requestTeamId', () => {
  it.each([
    [{ team_id: 'T1' }, 'T1'],
    [{ team: { id: 'T2' } }, 'T2'],
    [{ team: null, user: { team_id: 'T3' } }, 'T3'],
    [{}, undefined],
  ])('finds the workspace in %j', (body, expected) => {
    expect(requestTeamId(body)).toBe(expected);
  });
});

describe('requestEnterpriseId', () => {
  it.each([
    [{ enterprise_id: 'E1' }, 'E1'],
    [{ enterprise: { id: 'E2' } }, 'E2'],
    [{ team: { id: 'T1', enterprise_id: 'E3' } }, 'E3'],
    [{ authorizations: [{ enterprise_id: 'E4', team_id: 'T1' }] }, 'E4'],
    [{ enterprise_id: null, authorizations: [{ enterprise_id: null }] }, undefined],
  ])('finds the organization in %j', (body, expected) => {
    expect(requestEnterpriseId(body)).toBe(expected);
  });
});

describe('isAllowedRequest', () => {
  it.each([
    [[], 'T1', undefined, true],
    [['T1'], 'T1', undefined, true],
    [['T1'], 'T2', undefined, false],
    [['E1'], 'T2', 'E1', true],
    [['E1'], 'T2', 'E2', false],
    [['E1'], 'E1', undefined, true],
    [['T1'], undefined, undefined, false],
  ])('with %j admits team %s of organization %s: %s', (allowed, team, enterprise, expected) => {
    expect(isAllowedRequest(allowed, team, enterprise)).toBe(expected);
  });
});
