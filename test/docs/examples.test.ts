/**
 * Every command the docs show is read by the parsers the bot uses, so the docs cannot drift from
 * the grammar. The convention (docs/architecture.md, "Documentation examples"):
 * - each line of a fenced block marked `text examples` is typed in Slack and must be read;
 * - each inline code span starting with `/influencers ` must be read too, unless it holds a
 *   placeholder (`<`, `[`, `…`);
 * - each line of a block marked `text refused` must be refused with the parser's message;
 * - blocks marked `text syntax` are synopses and are not read; any other block with a line
 *   starting `/influencers` fails, so an example cannot hide from this test.
 * A line is routed as Slack and the console route it, by the subcommand words of
 * src/parsing/subcommands.ts: after `/influencers`, a digest word (`digest`, `digests`, `watch`)
 * makes a digest command, a conference word a conference command, anything else a lookup; without
 * the command it is a direct message, and `@Influencers …` a mention, both read as a conversation.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnalyticsApi } from '../../src/analytics/types.ts';
import { ParseError } from '../../src/errors.ts';
import { slashCommand } from '../../src/model/commands.ts';
import { parseConferenceCommand } from '../../src/parsing/conference.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { parseLookup } from '../../src/parsing/lookup.ts';
import { subcommandOf } from '../../src/parsing/subcommands.ts';
import { testCore } from '../helpers/core.ts';
import { runCli } from '../helpers/run-cli.ts';

const root = new URL('../..', import.meta.url);
const now = new Date('2026-11-21T15:30:00Z');
const zone = 'America/New_York';
const mention = '@Influencers ';

interface Example {
  readonly text: string;
  readonly line: number;
  readonly expect: 'read' | 'refused';
}

interface Extracted {
  readonly examples: Example[];
  /** Lines of fenced blocks that hold a command but no mark saying what they are. */
  readonly unmarked: string[];
  /** `cli -- parse` lines and the JSON the docs say they print. */
  readonly cliParses: { readonly args: readonly string[]; readonly printed: string }[];
}

const fence = /^\s*(`{3,}|~{3,})\s*(.*)$/;

/** The examples a markdown document shows, by the convention above. */
function extractExamples(markdown: string): Extracted {
  const lines = markdown.split('\n');
  const examples: Example[] = [];
  const unmarked: string[] = [];
  const cliParses: { args: string[]; printed: string }[] = [];
  let prose: { text: string; line: number }[] = [];
  const flushProse = () => {
    examples.push(...inlineExamples(prose));
    prose = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const opening = fence.exec(lines[i] ?? '');
    if (!opening) {
      prose.push({ text: lines[i] ?? '', line: i + 1 });
      continue;
    }
    flushProse();
    const marker = opening[1] ?? '```';
    const info = (opening[2] ?? '').trim();
    const body: { text: string; line: number }[] = [];
    for (i += 1; i < lines.length && !isClosing(lines[i] ?? '', marker); i += 1) {
      body.push({ text: (lines[i] ?? '').trim(), line: i + 1 });
    }
    const typed = body.filter((entry) => entry.text !== '');
    if (info === 'text examples' || info === 'text refused') {
      const expected = info === 'text examples' ? 'read' : 'refused';
      examples.push(...typed.map((entry) => ({ ...entry, expect: expected }) as const));
    } else if (info !== 'text syntax') {
      for (const entry of typed) {
        if (entry.text.startsWith(slashCommand)) unmarked.push(`line ${entry.line}: ${entry.text}`);
      }
      cliParses.push(...cliParsesIn(typed.map((entry) => entry.text)));
    }
  }
  flushProse();
  return { examples, unmarked, cliParses };
}

function isClosing(line: string, marker: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(marker) && /^(`+|~+)$/.test(trimmed);
}

/** Code spans may run over a line break, which reads as a space. */
function inlineExamples(prose: readonly { text: string; line: number }[]): Example[] {
  const text = prose.map((entry) => entry.text).join('\n');
  const found: Example[] = [];
  for (const match of text.matchAll(/`([^`]+)`/g)) {
    const span = (match[1] ?? '').replace(/\s+/g, ' ').trim();
    if (!span.startsWith(`${slashCommand} `) || /[<[…]/.test(span)) continue;
    const newlines = text.slice(0, match.index).split('\n').length - 1;
    found.push({ text: span, line: prose[newlines]?.line ?? 0, expect: 'read' });
  }
  return found;
}

/** `npm run --silent cli -- parse --tz Z --now N "text"` followed by `# {…}`. */
function cliParsesIn(lines: readonly string[]): { args: string[]; printed: string }[] {
  const found: { args: string[]; printed: string }[] = [];
  lines.forEach((line, i) => {
    const call = /cli -- parse --tz (\S+) --now (\S+) "(.+)"$/.exec(line);
    const printed = /^# (\{.*\})$/.exec(lines[i + 1] ?? '')?.[1];
    if (call && printed !== undefined) {
      found.push({ args: [call[1] ?? '', call[2] ?? '', call[3] ?? ''], printed });
    }
  });
  return found;
}

const unusedAnalytics = new Proxy({} as AnalyticsApi, {
  get() {
    throw new Error('reading an example must not call the analytics service');
  },
});
const flow = testCore({
  analytics: unusedAnalytics,
  lookup: { progressUpdateMs: 8_000, timeoutMs: 120_000 },
  now: () => now,
}).lookup;

type Reading =
  | { readonly outcome: 'read'; readonly as: string }
  | { readonly outcome: 'refused'; readonly message: string }
  | { readonly outcome: 'not a command'; readonly as: string };

/** What the bot makes of `text`, routed as Slack routes it. */
function readExample(text: string): Reading {
  if (text.startsWith(mention)) return readLookup(text.slice(mention.length), undefined);
  if (text !== slashCommand && !text.startsWith(`${slashCommand} `)) {
    return readLookup(text, undefined);
  }
  const rest = text.slice(slashCommand.length).trim();
  // Every subcommand is named, so a new one fails to compile here until it is routed.
  switch (subcommandOf(rest)) {
    case 'conference': {
      const conference = parseConferenceCommand(rest, { now, zone });
      if (conference instanceof ParseError)
        return { outcome: 'refused', message: conference.message };
      return { outcome: 'read', as: `conference ${conference.kind}` };
    }
    case 'digest': {
      const parsed = parseDigestCommand(rest, { now, zone });
      if (parsed instanceof ParseError) return { outcome: 'refused', message: parsed.message };
      return { outcome: 'read', as: `digest ${parsed.kind}` };
    }
    case 'help':
    case 'about':
    case undefined:
      return readLookup(rest, slashCommand);
  }
}

function readLookup(text: string, command: string | undefined): Reading {
  const plan = flow.plan(text, { zone, ...(command === undefined ? {} : { command }) });
  if (plan.kind === 'lookup') return { outcome: 'read', as: 'lookup' };
  if (plan.kind === 'invalid') return { outcome: 'refused', message: plan.error.message };
  // The usage counts as reading only when it was asked for; a greeting or a bare word also gets it.
  const askedForHelp = /^help$/i.test(text.trim());
  return askedForHelp ? { outcome: 'read', as: 'help' } : { outcome: 'not a command', as: 'help' };
}

/** The documents whose examples are checked, and the fewest examples each must show. */
const documents = [
  { path: 'README.md', minimum: 10 },
  { path: 'docs/usage.md', minimum: 30 },
  { path: 'docs/digests.md', minimum: 15 },
  { path: 'docs/conferences.md', minimum: 6 },
] as const;

describe('the documented examples', () => {
  for (const document of documents) {
    const markdown = readFileSync(new URL(document.path, root), 'utf8');
    const { examples, unmarked, cliParses } = extractExamples(markdown);

    describe(document.path, () => {
      it(`shows at least ${document.minimum} examples`, () => {
        expect(examples.length).toBeGreaterThanOrEqual(document.minimum);
      });

      it('marks every block that holds a command', () => {
        expect(unmarked).toEqual([]);
      });

      it.each(examples.filter((example) => example.expect === 'read'))(
        'reads line $line: $text',
        ({ text }) => {
          expect(readExample(text)).toMatchObject({ outcome: 'read' });
        },
      );

      const refused = examples.filter((example) => example.expect === 'refused');
      if (refused.length > 0) {
        it.each(refused)('refuses line $line: $text', ({ text }) => {
          const reading = readExample(text);
          expect(reading).toMatchObject({ outcome: 'refused' });
          // Every refusal closes on a command that works.
          expect(reading.outcome === 'refused' && reading.message).toMatch(/Try: \//);
        });
      }

      if (cliParses.length > 0) {
        it.each(cliParses)('prints what the parser makes of $args', ({ args, printed }) => {
          const [tz, at, text] = args;
          const request = parseLookup(text ?? '', { now: new Date(at ?? ''), zone: tz ?? '' });
          expect(JSON.stringify(request)).toBe(printed);
        });
      }
    });
  }
});

describe('extractExamples', () => {
  it('finds marked blocks, inline commands over a line break, and unmarked commands', () => {
    const markdown = [
      'Try `/influencers #hcsm',
      'last week` or `/influencers <databases>`.',
      '```text examples',
      '/influencers #bcsm yesterday',
      '',
      '#hcsm today',
      '```',
      '```text refused',
      '/influencers #hcsm tonight',
      '```',
      '```text syntax',
      '/influencers <databases> [window]',
      '```',
      '  ```',
      '  /influencers #lcsm last week',
      '  ```',
    ].join('\n');
    expect(extractExamples(markdown)).toEqual({
      examples: [
        { text: '/influencers #hcsm last week', line: 1, expect: 'read' },
        { text: '/influencers #bcsm yesterday', line: 4, expect: 'read' },
        { text: '#hcsm today', line: 6, expect: 'read' },
        { text: '/influencers #hcsm tonight', line: 9, expect: 'refused' },
      ],
      unmarked: ['line 15: /influencers #lcsm last week'],
      cliParses: [],
    });
  });

  it('tells a command read from one refused, a digest from a lookup, and help from a bare word', () => {
    expect(readExample('/influencers #hcsm yestreday')).toMatchObject({ outcome: 'refused' });
    expect(readExample('/influencers watch #hcsm top 10')).toEqual({
      outcome: 'read',
      as: 'digest create',
    });
    expect(readExample('@Influencers who drove #hcsm yesterday?')).toEqual({
      outcome: 'read',
      as: 'lookup',
    });
    expect(readExample('/influencers help')).toEqual({ outcome: 'read', as: 'help' });
    expect(readExample('hello')).toEqual({ outcome: 'not a command', as: 'help' });
    expect(readExample('/influencers who drove #hcsm last week?')).toEqual({
      outcome: 'read',
      as: 'lookup',
    });
  });
});

describe('what the docs say of their own examples', () => {
  it('docs/architecture.md names every document whose examples are read', () => {
    const architecture = readFileSync(new URL('docs/architecture.md', root), 'utf8');
    const section = architecture.slice(architecture.indexOf('### Documentation examples'));
    const paragraph = section.slice(0, section.indexOf('\n\n', section.indexOf('`test/docs')));
    for (const document of documents) expect(paragraph).toContain(`\`${document.path}\``);
  });

  const redirected = [...readdirSync(new URL('docs/', root)), '../README.md'].flatMap((name) => {
    if (!name.endsWith('.md')) return [];
    const markdown = readFileSync(new URL(`docs/${name}`, root), 'utf8');
    return [...markdown.matchAll(/^npm run --silent cli -- (parse .*)< (\S+)/gm)].map((match) => ({
      args: (match[1] ?? '').trim().split(/\s+/),
      input: match[2] ?? '',
    }));
  });

  it('ships the input of every documented command that reads a file', () => {
    expect(redirected.length).toBeGreaterThan(0);
    for (const { input } of redirected) expect(existsSync(new URL(input, root))).toBe(true);
  });

  it.each(redirected)('answers $input line for line, as the docs say', async ({ args, input }) => {
    const lines = readFileSync(new URL(input, root), 'utf8').trimEnd().split('\n');
    const run = await runCli(args, { input: lines.join('\n') });
    expect(run.status).toBe(0);
    const answers = run.stdout.trimEnd().split('\n');
    expect(answers).toHaveLength(lines.length);
    for (const answer of answers) expect(() => JSON.parse(answer)).not.toThrow();
  });
});
