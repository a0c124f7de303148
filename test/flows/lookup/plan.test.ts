import { describe, expect, it } from 'vitest';
import { digestVerbs } from '../../../src/model/commands.ts';
import { leadingWord } from '../../../src/parsing/leading-word.ts';
import { renderError } from '../../../src/render/errors.ts';
import {
  conferenceInConversationHint,
  digestVerbHint,
  renderHelp,
} from '../../../src/render/lookups/help.ts';
import {
  renderPending,
  utcFallbackNote,
  zoneAliasNote,
} from '../../../src/render/lookups/status.ts';
import { flowWith, now, request, result } from './helpers.ts';

describe('LookupFlow.plan', () => {
  const { flow } = flowWith(async () => result);

  it.each([
    '',
    '  ',
    'help',
    'HELP',
    '?',
    'digests',
    'hi',
    'hello',
    'Hello!',
    'hey there',
    'thanks',
    'thank you',
    'good morning',
    'Help me',
    'help #hcsm',
    'help?',
    'usage',
    'version',
    'watch #hcsm top 10',
    'Watch #hcsm',
  ])('gives the usage for %j', (text) => {
    expect(flow.plan(text, { zone: 'UTC', command: '/influencers' })).toEqual({
      kind: 'help',
      message: renderHelp({ command: '/influencers' }),
    });
  });

  it.each([
    ['pause 3', 'pause', '3'],
    ['pause X', 'pause', 'X'],
    ['remove', 'remove', ''],
    ['delete 7', 'delete', '7'],
    ['run', 'run', ''],
    ['stop', 'stop', ''],
    ['Resume 12', 'resume', '12'],
    ['list', 'list', ''],
    ['settings', 'settings', ''],
    ['status', 'status', ''],
  ])('gives the usage with a digest hint for %j', (text, verb, rest) => {
    expect(flow.plan(text, { zone: 'UTC', command: '/influencers' })).toEqual({
      kind: 'help',
      message: renderHelp({
        command: '/influencers',
        hint: digestVerbHint(verb, rest, '/influencers'),
      }),
    });
  });

  it.each([...digestVerbs.keys()])('reads %s typed without digest as a digest verb', (verb) => {
    expect(leadingWord(`${verb} 7K3M9Q`)).toEqual({ kind: 'digest_verb', verb, rest: '7K3M9Q' });
  });

  it.each(['diabetes', 'diabetes last week', '"run" last week', 'goodrx yesterday', 'good'])(
    'hands %j to the parser: a plain word can be a phrase database',
    (text) => {
      expect(leadingWord(text)).toBeUndefined();
      expect(flow.plan(text, { zone: 'UTC' }).kind).not.toBe('help');
    },
  );

  it.each([
    ['who drove #hcsm last week?', ['#hcsm']],
    ['top influencers for #bcsm yesterday', ['#bcsm']],
    ['show me "breast cancer" this month', ['breast cancer']],
    ['hello, who drove #bcsm last week?', ['#bcsm']],
  ])('answers the question %j in a DM, whatever its first word', (text, databases) => {
    expect(flow.asksForUsage(text)).toBe(false);
    expect(flow.plan(text, { zone: 'UTC' })).toMatchObject({
      kind: 'lookup',
      request: { databases },
    });
  });

  it('says where digests are created when one is typed in a conversation', () => {
    const plan = flow.plan('digest #hcsm every monday at 9am', { zone: 'UTC' });
    expect(plan.kind).toBe('help');
    expect(plan.kind === 'help' ? plan.message.text : '').toBe(
      'Digests and watches are created where they post: type `/influencers digest #hcsm every monday at 9am` in the channel that should receive them, or type it in my DM to get it there. Here I answer lookups, such as `#hcsm last week`.',
    );
  });

  it.each(['conference #hcsm today', 'Conferences'])(
    'says where a conference is created for %j typed in a conversation',
    (text) => {
      expect(flow.plan(text, { zone: 'UTC' })).toEqual({
        kind: 'help',
        message: renderHelp({ hint: conferenceInConversationHint(text) }),
      });
    },
  );

  it.each([
    'who drove #hcsm last week?',
    'show me "breast cancer" this month',
    'hello, who drove #bcsm last week?',
    'top influencers for #bcsm yesterday',
    '#hcsm; DROP TABLE digests;--',
    'who led #hcsm on Black Friday?',
  ])('plans %j alike after the slash command, in the modal and in a DM', (text) => {
    const slash = flow.plan(text, { zone: 'UTC', command: '/influencers' });
    const direct = flow.plan(text, { zone: 'UTC' });
    const modal = flow.parse(text, 'UTC');
    expect(slash.kind).toBe('lookup');
    if (slash.kind !== 'lookup' || direct.kind !== 'lookup') throw new Error('not a lookup');
    expect(direct.request).toEqual(slash.request);
    expect(modal).toEqual(slash.request);
  });

  it.each([
    ['#hcsm last week by engagement', ['by mentions', 'by retweets', 'by replies']],
    ['#hcsm last week by reposts and replies', ['by retweets', 'by replies']],
  ])('asks which ranking %j meant, one button a ranking', (text, labels) => {
    const plan = flow.plan(text, { zone: 'UTC', command: '/influencers' });
    expect(plan.kind).toBe('invalid');
    const actions = plan.kind === 'invalid' ? plan.message.blocks.at(-1) : undefined;
    expect(actions?.type).toBe('actions');
    const buttons = (actions as { elements: { text: { text: string } }[] }).elements;
    expect(buttons.map((button) => button.text.text)).toEqual(labels);
  });

  it('writes the DM form of an error in a DM', () => {
    const plan = flow.plan('#bcsm yestreday', { zone: 'UTC' });
    expect(plan.kind).toBe('invalid');
    if (plan.kind === 'invalid') expect(plan.error.message).toMatch(/Try: #bcsm yesterday$/);
  });

  it('gives the parser error, rendered, for text it cannot read', () => {
    const plan = flow.plan('#hcsm top 500', { zone: 'UTC' });
    expect(plan.kind).toBe('invalid');
    if (plan.kind === 'invalid') expect(plan.message).toEqual(renderError(plan.error));
  });

  it('refuses a window before the configured first day with data', () => {
    const { flow: strict } = flowWith(async () => result, {
      progressUpdateMs: 1_000,
      timeoutMs: 5_000,
      earliestDataDate: '2026-11-01',
    });
    const plan = strict.plan('#hcsm last month', { zone: 'UTC', command: '/influencers' });
    expect(plan.kind).toBe('invalid');
    if (plan.kind === 'invalid') {
      expect(plan.error.message).toContain('before the earliest data (2026-11-01)');
    }
    expect(strict.plan('#hcsm this month', { zone: 'UTC' }).kind).toBe('lookup');
  });

  it('says how a zone named by an abbreviation or a place was read, in the pending message', () => {
    const plan = flow.plan('#hcsm last week in EST', { zone: 'UTC', zoneFallback: true });
    expect(plan).toMatchObject({
      kind: 'lookup',
      note: `${utcFallbackNote} ${zoneAliasNote('EST', 'America/New_York')}`,
    });
    expect(zoneAliasNote('EST', 'America/New_York')).toBe('EST read as America/New_York.');
    if (plan.kind === 'lookup') {
      expect(plan.pending).toEqual(renderPending(plan.request, { now, note: plan.note ?? '' }));
    }
  });

  it("plans a lookup in the person's zone with the pending message", () => {
    expect(flow.plan('#hcsm last week', { zone: 'Europe/Paris' })).toEqual({
      kind: 'lookup',
      request,
      note: undefined,
      pending: renderPending(request, { now }),
    });
  });

  it('says so when the zone is the UTC fallback', () => {
    const plan = flow.plan('#hcsm last week', { zone: 'UTC', zoneFallback: true });
    expect(plan.kind === 'lookup' && plan.note).toBe(utcFallbackNote);
    if (plan.kind === 'lookup')
      expect(plan.pending).toEqual(renderPending(plan.request, { note: utcFallbackNote, now }));
  });
});
