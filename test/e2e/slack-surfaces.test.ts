/**
 * One request reads the same on every surface: the slash command, a DM, a mention, the Home tab's
 * modal, the Workflow Builder step, a Messages-tab thread and `npm run cli -- parse`. Each
 * surface is driven with signed requests as Slack sends them (the modal and the step with the
 * request split into their inputs), and the request it runs is caught at the lookup flow.
 */
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import type { LookupRequest } from '../../src/model/lookup.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { callbackIds, functionIds, lookupModalInputs } from '../../src/render/ids.ts';
import type { Harness } from '../helpers/harness.ts';
import { fixedNow, startLookupHarness, userZone } from '../helpers/lookups.ts';
import {
  directMessageEvent,
  eventCallback,
  functionExecutedEvent,
  mentionEvent,
  messagesTabOpenedEvent,
  slashCommand,
  userId,
  viewSubmission,
} from '../helpers/payloads.ts';
import { runCli } from '../helpers/run-cli.ts';

/** A request as its parts, which the modal and the step take as inputs of their own. */
interface Parts {
  readonly databases: string;
  readonly window: string;
  readonly zone?: string;
  readonly top?: number;
  readonly metric?: string;
  /** Who to keep, as the modal's Only choices name them. */
  readonly who?: readonly string[];
}

/** The parts as one line, as typed after the command or in a DM. */
function typed(parts: Parts): string {
  return [
    parts.databases,
    parts.window,
    parts.zone === undefined ? '' : `in ${parts.zone}`,
    parts.top === undefined ? '' : `top ${parts.top}`,
    parts.metric === undefined ? '' : `by ${parts.metric}`,
    parts.who === undefined ? '' : `only ${parts.who.join(' and ')}`,
  ]
    .filter((part) => part !== '')
    .join(' ');
}

const rows: readonly Parts[] = [
  { databases: '#hcsm', window: 'last week' },
  { databases: '#bcsm, "breast cancer"', window: 'yesterday', top: 5, metric: 'impressions' },
  { databases: '#hcsm', window: 'from Nov 1 to Nov 15', zone: 'Europe/Paris', who: ['doctors'] },
  {
    databases: '#bcsm',
    window: 'last month',
    metric: 'followers',
    who: ['patients', 'caregivers'],
  },
  { databases: '#hcsm', window: 'since Nov 16 9am', top: 3 },
];

let harness: Harness;
let runs: MockInstance;
let steps: MockInstance;
let channels = 0;

beforeAll(async () => {
  harness = await startLookupHarness();
  runs = vi.spyOn(harness.running.deps.flow, 'run');
  steps = vi.spyOn(harness.running.deps.flow, 'madeOrWords');
});

afterAll(async () => {
  await harness?.close();
});

/** The request the next lookup `spy` sees runs, once `send` delivered what starts it. */
async function ranBy(spy: MockInstance, send: () => Promise<unknown>): Promise<LookupRequest> {
  const before = spy.mock.calls.length;
  await send();
  await vi.waitFor(() => expect(spy.mock.calls.length).toBeGreaterThan(before), {
    timeout: 15_000,
  });
  await harness.settled();
  return spy.mock.calls[before]?.[0] as LookupRequest;
}

/** A request as every surface runs it: a step's summary is text, so never a table or a file. */
function comparable(request: LookupRequest): Partial<LookupRequest> {
  const { presentation: _shown, export: _export, ...rest } = request;
  return rest;
}

const surfaces: Record<string, (parts: Parts) => Promise<LookupRequest>> = {
  'slash command': (parts) => ranBy(runs, () => harness.send(slashCommand({ text: typed(parts) }))),
  DM: (parts) =>
    ranBy(runs, () =>
      harness.send(
        eventCallback({
          event: directMessageEvent(typed(parts), { channel: `D0SURFACE${channels++}` }),
        }),
      ),
    ),
  mention: (parts) =>
    ranBy(runs, () => harness.send(eventCallback({ event: mentionEvent(typed(parts)) }))),
  modal: (parts) => {
    const input = lookupModalInputs;
    const text = (value: string) => ({ type: 'plain_text_input', value });
    const values: Record<string, Record<string, Record<string, unknown>>> = {
      [input.databases.blockId]: { [input.databases.actionId]: text(parts.databases) },
      [input.window.blockId]: { [input.window.actionId]: text(parts.window) },
      [input.zone.blockId]: { [input.zone.actionId]: text(parts.zone ?? '') },
      [input.top.blockId]: { [input.top.actionId]: text(parts.top?.toString() ?? '') },
    };
    if (parts.metric !== undefined) {
      values[input.metric.blockId] = {
        [input.metric.actionId]: {
          type: 'static_select',
          selected_option: { value: parts.metric },
        },
      };
    }
    if (parts.who !== undefined) {
      values[input.who.blockId] = {
        [input.who.actionId]: {
          type: 'multi_static_select',
          selected_options: parts.who.map((value) => ({ value })),
        },
      };
    }
    return ranBy(runs, () =>
      harness.send(viewSubmission({ callbackId: callbackIds.lookupModal, values })),
    );
  },
  'workflow step': (parts) => {
    const window = [parts.window, parts.zone === undefined ? '' : `in ${parts.zone}`].join(' ');
    const run = functionExecutedEvent(functionIds.topInfluencers, {
      databases: parts.databases,
      window: window.trim(),
      ...(parts.top === undefined ? {} : { top: parts.top }),
      ...(parts.metric === undefined ? {} : { metric: parts.metric }),
      ...(parts.who === undefined ? {} : { stakeholders: parts.who.join(' and ') }),
      person: userId,
    });
    return ranBy(steps, () => harness.send(eventCallback({ event: run.event })));
  },
  'agent thread': async (parts) => {
    const channel = `D0SURFACE${channels++}`;
    await harness.send(eventCallback({ event: messagesTabOpenedEvent(channel) }));
    await harness.slack.waitFor(
      (c) => c.method === 'assistant.threads.setSuggestedPrompts' && c.args.channel_id === channel,
    );
    return ranBy(runs, () =>
      harness.send(eventCallback({ event: directMessageEvent(typed(parts), { channel }) })),
    );
  },
};

describe('one request on every surface', () => {
  for (const parts of rows) {
    const text = typed(parts);
    const expected = parseLookup(text, { now: fixedNow, zone: userZone, conversation: true });

    it.each(Object.keys(surfaces))(`reads ${text} alike on the %s`, async (surface) => {
      if (expected instanceof Error) throw expected;
      const read = await surfaces[surface]?.(parts);
      expect(comparable(read as LookupRequest)).toEqual(comparable(expected));
    });

    it(`reads ${text} alike with npm run cli -- parse`, async () => {
      if (expected instanceof Error) throw expected;
      const cli = await runCli(['parse', '--tz', userZone, '--now', fixedNow.toISOString(), text]);
      expect(cli.status).toBe(0);
      expect(JSON.parse(cli.stdout)).toEqual(JSON.parse(JSON.stringify(comparable(expected))));
    });
  }
});

describe('a follow-up in every DM', () => {
  const first = '#bcsm last month by followers top 5 doctors';
  const followUp = 'how about #hcsm?';
  const expected = parseLookup('#hcsm last month by followers top 5 doctors', {
    now: fixedNow,
    zone: userZone,
  });

  it('reads alike in a plain DM and in a Messages-tab thread', async () => {
    const dm = `D0SURFACE${channels++}`;
    const say = (text: string, extra: Record<string, unknown>) =>
      ranBy(runs, () =>
        harness.send(eventCallback({ event: directMessageEvent(text, { channel: dm, ...extra }) })),
      );
    await say(first, {});
    const inDm = await say(followUp, {});

    const agent = `D0SURFACE${channels++}`;
    await harness.send(eventCallback({ event: messagesTabOpenedEvent(agent) }));
    await harness.slack.waitFor(
      (c) => c.method === 'assistant.threads.setSuggestedPrompts' && c.args.channel_id === agent,
    );
    const question = directMessageEvent(first, { channel: agent });
    await ranBy(runs, () => harness.send(eventCallback({ event: question })));
    const inThread = await ranBy(runs, () =>
      harness.send(
        eventCallback({
          event: directMessageEvent(followUp, { channel: agent, thread_ts: question.ts }),
        }),
      ),
    );
    expect(inDm).toEqual(expected);
    expect(inThread).toEqual(expected);
  });
});

/** Questions typed as one line, as people ask them: every surface that takes a line reads them alike. */
const questions: readonly string[] = [
  'who drove #hcsm last week?',
  'top influencers for #bcsm yesterday',
  'hello, who were the top doctors in #hcsm last month?',
  '#hcsm last week in Paris doctors',
  "'rare disease' last month",
  '#hcsm; DROP TABLE digests;--',
];

/** The surfaces a whole line is typed into; the Workflow step takes its parts apart. */
const lineSurfaces = ['slash command', 'DM', 'mention', 'modal', 'agent thread'] as const;

describe('one question on every surface', () => {
  for (const question of questions) {
    const expected = parseLookup(question, { now: fixedNow, zone: userZone, conversation: true });

    it.each(lineSurfaces)(`reads ${question} as in a DM on the %s`, async (surface) => {
      if (expected instanceof Error) throw expected;
      const read = await surfaces[surface]?.({ databases: question, window: '' });
      expect(comparable(read as LookupRequest)).toEqual(comparable(expected));
    });

    it(`reads ${question} as in a DM with npm run cli -- parse, with or without the command`, async () => {
      if (expected instanceof Error) throw expected;
      for (const text of [question, `/influencers ${question}`]) {
        const cli = await runCli([
          'parse',
          '--tz',
          userZone,
          '--now',
          fixedNow.toISOString(),
          text,
        ]);
        expect(cli.status).toBe(0);
        expect(JSON.parse(cli.stdout)).toEqual(JSON.parse(JSON.stringify(comparable(expected))));
      }
    });
  }
});
