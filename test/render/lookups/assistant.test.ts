import { describe, expect, it } from 'vitest';
import { parseLookup } from '../../../src/parsing/index.ts';
import {
  defaultAssistantPrompts,
  maxAssistantPrompts,
  renderAssistantPrompts,
  renderAssistantStatus,
  renderAssistantTitle,
} from '../../../src/render/lookups/assistant.ts';
import { lookup, now } from '../helpers.ts';

const reads = (message: string) =>
  parseLookup(message, { now, zone: 'Europe/Paris', conversation: true });

describe('renderAssistantPrompts', () => {
  it('offers the defaults away from any digest', () => {
    expect(renderAssistantPrompts()).toEqual({
      title: 'Try asking',
      prompts: defaultAssistantPrompts,
    });
  });

  it('puts each digest list first, once, and keeps four prompts at most', () => {
    const { prompts } = renderAssistantPrompts([
      ['#hcsm'],
      ['breast cancer', '#bcsm'],
      ['#hcsm'],
      [],
    ]);
    expect(prompts.map((prompt) => prompt.message)).toEqual([
      'who drove #hcsm last week?',
      'who drove "breast cancer", #bcsm last week?',
      defaultAssistantPrompts[0]?.message,
      defaultAssistantPrompts[1]?.message,
    ]);
    const many = renderAssistantPrompts(Array.from({ length: 9 }, (_, i) => [`#db${i}`]));
    expect(many.prompts).toHaveLength(maxAssistantPrompts);
  });

  it('offers only lookups the parser reads, and help', () => {
    const { prompts } = renderAssistantPrompts([['breast cancer', '#bcsm'], ['group:Oncology']]);
    for (const { message } of [...prompts, ...defaultAssistantPrompts]) {
      if (message === 'help') continue;
      expect(reads(message), message).not.toBeInstanceOf(Error);
    }
    expect(reads(prompts[0]?.message ?? '')).toMatchObject({
      databases: ['breast cancer', '#bcsm'],
    });
  });
});

describe('the assistant status and title', () => {
  it('name the databases, and the window for the title', () => {
    expect(renderAssistantStatus(lookup)).toBe('is looking up #hcsm…');
    expect(renderAssistantTitle(lookup, now)).toBe('#hcsm · Nov 14 – Nov 20, whole days, EST');
  });
});
