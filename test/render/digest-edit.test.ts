import { describe, expect, it } from 'vitest';
import type { Digest } from '../../src/model/digest.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { applyDigestEdit } from '../../src/parsing/digest-edit.ts';
import {
  type DigestEditState,
  editTextFromModal,
  renderDigestEditModal,
} from '../../src/render/digest-edit.ts';
import { checkBlockKitLimits } from '../../src/render/limits.ts';
import { schedulePhrase } from '../../src/render/schedule.ts';
import { digest, now } from './helpers.ts';

/** The modal's state as Slack sends it when nothing was changed. */
function untouched(view: ReturnType<typeof renderDigestEditModal>): DigestEditState {
  const state: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const block of view.blocks) {
    if (block.type !== 'input' || !('element' in block) || block.block_id === undefined) continue;
    const element = block.element as {
      action_id: string;
      initial_value?: string;
      initial_option?: { value: string };
    };
    state[block.block_id] = {
      [element.action_id]: {
        value: element.initial_value ?? null,
        selected_option: element.initial_option ?? null,
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
  ])('is prefilled so that saving it unchanged changes nothing (%j)', (overrides) => {
    const current = digest(overrides);
    const view = renderDigestEditModal(current, '{"id":"7K3M9Q"}');
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
    const text = editTextFromModal(current.id, untouched(view));
    const parsed = parseDigestCommand(text, { now, zone: 'UTC' });
    if (parsed instanceof Error || parsed.kind !== 'edit') throw new Error(`${text}: ${parsed}`);
    expect(applyDigestEdit(current, parsed.edit, now)).toMatchObject({
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
