import { describe, expect, it } from 'vitest';
import type { Digest } from '../../../src/model/digest.ts';
import { parseDigestCommand } from '../../../src/parsing/digest.ts';
import { applyDigestEdit } from '../../../src/parsing/digest-edit.ts';
import { schedulePhrase } from '../../../src/render/digests/schedule.ts';
import { digestEditInputs } from '../../../src/render/ids.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import {
  type DigestEditState,
  duplicateModalErrors,
  editTextFromModal,
  renderDigestEditModal,
  stakeholderModalErrors,
  stakeholdersFromModal,
} from '../../../src/render/management/digest-edit.ts';
import { digest, now } from '../helpers.ts';

/** The modal's state as Slack sends it when nothing was changed. */
function untouched(view: ReturnType<typeof renderDigestEditModal>): DigestEditState {
  const state: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const block of view.blocks) {
    if (block.type !== 'input' || !('element' in block) || block.block_id === undefined) continue;
    const element = block.element as {
      action_id: string;
      initial_value?: string;
      initial_option?: { value: string };
      initial_options?: { value: string }[];
    };
    state[block.block_id] = {
      [element.action_id]: {
        value: element.initial_value ?? null,
        selected_option: element.initial_option ?? null,
        selected_options: element.initial_options ?? [],
      },
    };
  }
  return state as DigestEditState;
}

describe('schedulePhrase', () => {
  it.each([
    '0 9 * * 1',
    '30 8 * * 1-5',
    '0 10 * * 0,6',
    '0 9 * * *',
    '15 17 * * 1,3,5',
    '0 9 1 * *',
    '0 17 L * *',
    '0 10 1,15 * *',
    '0 9 * * 1#1',
    '0 9 * * 5#L',
    '0 * * * *',
    '0 */6 * * *',
    '0 9 31 * *',
    '0 9 1 * 1',
  ])('words %s so that the digest grammar reads it back', (expression) => {
    const parsed = parseDigestCommand(`digest #x ${schedulePhrase(expression)}`, {
      now,
      zone: 'UTC',
    });
    if (parsed instanceof Error || parsed.kind !== 'create') throw new Error(String(parsed));
    expect(parsed.spec.schedule.expression).toBe(expression);
  });
});

describe('renderDigestEditModal', () => {
  it.each<Partial<Digest>>([
    {},
    {
      window: { kind: 'last', amount: 24, unit: 'hours' },
      metric: 'impressions',
      postWhen: 'new',
      presentation: 'chart',
    },
    {
      schedule: {
        kind: 'cron',
        expression: '0 */6 * * *',
        zone: 'Asia/Kolkata',
        cadence: 'custom',
      },
    },
    {
      stakeholders: { include: ['Doctor'], exclude: [] },
      orderBy: 'followers',
      metric: 'impressions',
      window: { kind: 'calendar', unit: 'week' },
    },
    {
      schedule: {
        kind: 'cron',
        expression: '0 9 * * 1',
        zone: 'Europe/London',
        cadence: 'custom',
        everyWeeks: 2,
        anchor: '2026-11-30',
      },
    },
    {
      stakeholders: {
        include: ['Patient Advocate', 'Doctor'],
        exclude: ['Org. Pharma', 'Org. Provider', 'Spam'],
      },
      canvas: { enabled: true, told: [] },
    },
    {
      stakeholders: { include: [], exclude: ['Org. Pharma'] },
      canvas: { enabled: false, told: [] },
    },
    { account: 'DrFerreiraI', postWhen: 'new', channelId: 'D0DM1' },
  ])('is prefilled so that saving it unchanged changes nothing (%j)', (overrides) => {
    const current = digest(overrides);
    const view = renderDigestEditModal(current, '{"id":"7K3M9Q"}');
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
    const state = untouched(view);
    const text = editTextFromModal(current.id, state);
    const parsed = parseDigestCommand(text, { now, zone: 'UTC' });
    if (parsed instanceof Error || parsed.kind !== 'edit') throw new Error(`${text}: ${parsed}`);
    const stakeholders = stakeholdersFromModal(state);
    expect(stakeholderModalErrors(stakeholders)).toBeUndefined();
    const edit = stakeholders === undefined ? parsed.edit : { ...parsed.edit, stakeholders };
    const edited = applyDigestEdit(current, edit, now);
    // The same filter object: the store keeps the last ranking only for an unchanged filter.
    expect(edited.stakeholders).toBe(current.stakeholders);
    expect(edited.canvas ?? false).toBe(current.canvas?.enabled ?? false);
    expect(edited).toMatchObject({
      schedule: current.schedule,
      window: current.window,
      top: current.top,
      metric: current.metric,
      presentation: current.presentation,
      postWhen: current.postWhen,
      stakeholders: current.stakeholders,
      orderBy: current.orderBy,
      scheduleChanged: false,
    });
  });
});

/** The input block of the modal whose block id is `which`'s. */
function inputOf(
  view: ReturnType<typeof renderDigestEditModal>,
  which: keyof typeof digestEditInputs,
) {
  return view.blocks.find((block) => block.block_id === digestEditInputs[which].blockId) as
    | { optional?: boolean; label: { text: string }; element: Record<string, unknown> }
    | undefined;
}

const values = (options: unknown): string[] =>
  ((options ?? []) as { value: string }[]).map((each) => each.value);

describe('the Edit modal’s people and canvas', () => {
  it('offers Only and Leave out as the lookup modal does, prefilled with the digest’s filter', () => {
    const view = renderDigestEditModal(
      digest({ stakeholders: { include: ['Doctor', 'HCP'], exclude: ['Org. Pharma', 'Spam'] } }),
      '{}',
    );
    const only = inputOf(view, 'who');
    const leaveOut = inputOf(view, 'without');
    expect(only).toMatchObject({ optional: true, label: { text: 'Only' } });
    expect(leaveOut).toMatchObject({ optional: true, label: { text: 'Leave out' } });
    expect(only?.element.type).toBe('multi_static_select');
    expect(values(only?.element.initial_options)).toEqual(['Doctor', 'HCP']);
    expect(values(leaveOut?.element.initial_options)).toEqual(['Org. Pharma', 'Spam']);
    // Every category of the service, then the filter's own names (`no bots`).
    expect(values(only?.element.options)).toHaveLength(12);
    expect(values(only?.element.options).at(-1)).toBe('Spam');
    expect(JSON.stringify(only?.element.options)).toContain('"text":"Pharma orgs"');
  });

  it('starts with everyone, and saves both selects emptied as everyone', () => {
    const view = renderDigestEditModal(digest(), '{}');
    expect(inputOf(view, 'who')?.element.initial_options).toBeUndefined();
    expect(inputOf(view, 'without')?.element.initial_options).toBeUndefined();
    expect(stakeholdersFromModal(untouched(view))).toBe('everyone');
  });

  it('keeps the digest’s filter when the submission has no such selects (a modal opened before)', () => {
    expect(stakeholdersFromModal({})).toBeUndefined();
  });

  it('stays within Slack’s limits on options however many names a filter holds', () => {
    const names = ['x'.repeat(120), ...Array.from({ length: 128 }, (_, i) => `C${i}`)];
    const view = renderDigestEditModal(
      digest({ stakeholders: { include: names, exclude: ['y'.repeat(151)] } }),
      '{}',
    );
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
    for (const which of ['who', 'without'] as const) {
      const options = inputOf(view, which)?.element.options as {
        text: { text: string };
        value: string;
      }[];
      expect(options).toHaveLength(100);
      expect(options.map((each) => each.value)).not.toContain('y'.repeat(151));
      expect(options.find((each) => each.value === 'x'.repeat(120))?.text.text).toHaveLength(75);
      expect(Math.max(...options.map((each) => each.text.text.length))).toBeLessThanOrEqual(75);
      expect(Math.max(...options.map((each) => each.value.length))).toBeLessThanOrEqual(150);
    }
  });

  it('refuses people both kept and left out, under Leave out', () => {
    expect(
      stakeholderModalErrors({ include: ['Doctor', 'HCP'], exclude: ['HCP', 'Doctor'] }),
    ).toEqual({
      digest_edit_without:
        'Doctors and HCPs cannot be both kept and left out: take them out of Only or out of Leave out.',
    });
  });

  it.each([
    [true, 'canvas on'],
    [false, 'canvas off'],
  ])(
    'offers a channel digest its canvas, prefilled on=%s, and saves it as %j',
    (enabled, words) => {
      const view = renderDigestEditModal(digest({ canvas: { enabled, told: [] } }), '{}');
      const toggle = inputOf(view, 'canvas');
      expect(toggle).toMatchObject({ optional: true, element: { type: 'checkboxes' } });
      expect(values(toggle?.element.initial_options)).toEqual(enabled ? ['on'] : []);
      expect(editTextFromModal('7K3M9Q', untouched(view))).toMatch(new RegExp(`${words}$`));
    },
  );

  it('offers a watch that keeps a canvas the way to turn it off', () => {
    const view = renderDigestEditModal(
      digest({ postWhen: 'new', canvas: { enabled: true, told: [] } }),
      '{}',
    );
    expect(values(inputOf(view, 'canvas')?.element.initial_options)).toEqual(['on']);
  });

  it('saves the canvas turned on and off by its checkbox', () => {
    const { blockId, actionId } = digestEditInputs.canvas;
    const on = { [blockId]: { [actionId]: { selected_options: [{ value: 'on' }] } } };
    const off = { [blockId]: { [actionId]: { selected_options: [] } } };
    expect(editTextFromModal('7K3M9Q', on)).toBe('digest edit 7K3M9Q canvas on');
    expect(editTextFromModal('7K3M9Q', off)).toBe('digest edit 7K3M9Q canvas off');
  });

  it.each<[string, Partial<Digest>]>([
    ['a watch', { postWhen: 'new' }],
    ['a watch of one account', { account: 'DrFerreiraI', postWhen: 'new' }],
    ['a digest in a DM', { channelId: 'D0DM1' }],
  ])('offers no canvas to %s', (_, overrides) => {
    const view = renderDigestEditModal(digest(overrides), '{}');
    expect(inputOf(view, 'canvas')).toBeUndefined();
    expect(editTextFromModal('7K3M9Q', untouched(view))).not.toContain('canvas');
  });
});

describe('the Edit modal’s answer to an edit that repeats another digest', () => {
  const existing = digest({ id: 'AAAAAA', top: 5 });
  const edited = digest({ id: 'BBBBBB', channelId: 'C0123' });
  const state = untouched(renderDigestEditModal(edited, '{}'));
  const words =
    'An identical digest, AAAAAA, already posts in the same channel: top 5 of #hcsm, "patient safety", Mondays at 09:00 Europe/London. Digest BBBBBB was left as it was. Change this, or remove AAAAAA.';

  it('shows under the first input the edit changed that the modal has', () => {
    expect(duplicateModalErrors(existing, edited, ['top', 'posts'], state)).toEqual({
      [digestEditInputs.top.blockId]: words,
    });
    expect(Object.keys(duplicateModalErrors(existing, edited, ['who'], state) ?? {})).toEqual([
      digestEditInputs.who.blockId,
    ]);
  });

  it('names a DM as the person’s, and leaves the answer to the caller when no input fits', () => {
    const personal = digest({ id: 'AAAAAA', channelId: 'D0123' });
    expect(
      Object.values(duplicateModalErrors(personal, edited, ['top'], state) ?? {})[0],
    ).toContain('already posts in your DM with me');
    expect(duplicateModalErrors(existing, edited, [], state)).toBeUndefined();
    expect(duplicateModalErrors(existing, edited, ['who'], {})).toBeUndefined();
  });
});
