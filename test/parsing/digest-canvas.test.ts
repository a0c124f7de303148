import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { applyDigestEdit } from '../../src/parsing/digest-edit.ts';

const now = new Date('2026-11-21T15:30:00Z');
const context = { now, zone: 'America/New_York' };

function parsed(text: string) {
  const command = parseDigestCommand(text, context);
  if (command instanceof ParseError) throw command;
  return command;
}

describe('parseDigestCommand (a channel canvas)', () => {
  it.each([
    'digest #hcsm every monday at 9am canvas',
    'digest #hcsm every monday at 9am with a canvas',
    'digest #hcsm canvas every monday at 9am top 5',
    'digest #hcsm every monday at 9am only when changed and canvas',
    'digest #hcsm every monday at 9am canvas on',
  ])('reads %j as keeping a canvas', (text) => {
    const command = parsed(text);
    expect(command.kind === 'create' && command.spec.canvas).toBe(true);
  });

  it.each([
    'digest #hcsm every monday at 9am last week doctors canvas',
    'digest #hcsm every monday at 9am canvas doctors',
    'digest #hcsm no pharma canvas every monday at 9am',
  ])('reads %j with its people and a canvas, whichever comes first', (text) => {
    const command = parsed(text);
    expect(command.kind === 'create' && command.spec.canvas).toBe(true);
    expect(command.kind === 'create' && command.spec.databases).toEqual(['#hcsm']);
    expect(command.kind === 'create' && command.spec.stakeholders).toBeDefined();
  });

  it('keeps no canvas unless asked', () => {
    const command = parsed('digest #hcsm every monday at 9am');
    expect(command.kind === 'create' && command.spec.canvas).toBeUndefined();
  });

  it('refuses a canvas named twice', () => {
    expect(
      parseDigestCommand('digest #hcsm every monday at 9am canvas with a canvas', context),
    ).toMatchObject({ fragment: 'with a canvas' });
  });

  it('refuses a canvas for a watch, which tells its creator alone', () => {
    const error = parseDigestCommand('watch #hcsm canvas', context);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toContain('keeps no channel canvas');
  });

  it.each([
    ['digest edit 7K3M9Q canvas on', true],
    ['digest edit 7K3M9Q canvas off', false],
    ['digest edit 7K3M9Q canvas', true],
  ] as const)('reads %j as turning the canvas %s', (text, canvas) => {
    const command = parsed(text);
    if (command.kind !== 'edit') throw new Error('not an edit');
    expect(command.edit).toEqual({ canvas });
    const edited = applyDigestEdit(
      {
        schedule: { kind: 'cron', expression: '0 9 * * 1', zone: 'UTC', cadence: 'weekly' },
        window: { kind: 'since-previous-run' },
        top: 10,
        presentation: 'list',
        postWhen: 'always',
      },
      command.edit,
      now,
    );
    expect(edited).toMatchObject({ canvas, scheduleChanged: false });
  });

  it('refuses turning on a canvas for a watch, as at its creation, and lets it be turned off', () => {
    const watch = {
      schedule: { kind: 'cron', expression: '0 * * * *', zone: 'UTC', cadence: 'custom' },
      window: { kind: 'since-previous-run' },
      top: 10,
      presentation: 'list',
      postWhen: 'new',
      account: 'DrFerreiraI',
    } as const;
    const on = parsed('digest edit 7K3M9Q canvas on');
    const off = parsed('digest edit 7K3M9Q canvas off');
    if (on.kind !== 'edit' || off.kind !== 'edit') throw new Error('not an edit');
    expect(() => applyDigestEdit(watch, on.edit, now)).toThrow(/keeps no channel canvas/);
    expect(applyDigestEdit(watch, off.edit, now)).toMatchObject({ canvas: false });
  });
});
