/**
 * The corpus of phrasings a new user types (`*.txt` beside this file), read through the parser
 * and scored: right (the reading labelled), helpful refusal (refused with the words labelled, and
 * a closing command that reads), wrong (a reading other than the one labelled, or a reading where
 * a refusal was labelled) and unhelpful refusal (any other refusal).
 *
 *   node test/parsing/corpus/score.ts [--all]   prints the counts, and every wrong or unhelpful
 *                                               line (every line with --all); exit 1 on a wrong
 *                                               reading or more than 2 % unhelpful refusals
 *
 * A line is `<text> => <expected>`, where the expected is a canonical command the text must read
 * as (`#hcsm last week`), or `! <words> | <words>` for a refusal whose message holds each of the
 * words (any case). `@surface slash|dm`, `@zone <zone>` and `@now <ISO instant>` set what follows
 * in the file; `//` starts a comment line. Lines that open a digest command as their surface reads
 * it (`digest`, `digests` or `watch`: src/parsing/subcommands.ts) are digest commands, compared by
 * what they create.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ParseError } from '../../../src/errors.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import { type DigestCommand, parseDigestCommand } from '../../../src/parsing/digest.ts';
import { parseLookup } from '../../../src/parsing/index.ts';
import { subcommandOf } from '../../../src/parsing/subcommands.ts';

export type Verdict = 'right' | 'helpful refusal' | 'wrong' | 'unhelpful refusal';

export interface CorpusLine {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly expected: string;
  readonly surface: 'slash' | 'dm';
  readonly zone: string;
  readonly now: Date;
}

export interface Scored extends CorpusLine {
  readonly verdict: Verdict;
  /** What the parser made of the text, for reading a wrong or unhelpful line. */
  readonly got: string;
}

/** Most unhelpful refusals the corpus may hold, as a share of its lines. */
export const maxUnhelpfulShare = 0.02;

const corpusDir = new URL('.', import.meta.url);
const defaultNow = '2026-11-18T14:20:00Z';

/** Every line of every corpus file, with the surface, zone and clock in force for it. */
export function readCorpus(): CorpusLine[] {
  const lines: CorpusLine[] = [];
  const files = readdirSync(corpusDir)
    .filter((name) => name.endsWith('.txt'))
    .sort();
  for (const file of files) {
    let surface: 'slash' | 'dm' = 'slash';
    let zone = 'UTC';
    let now = new Date(defaultNow);
    readFileSync(new URL(file, corpusDir), 'utf8')
      .split('\n')
      .forEach((raw, index) => {
        const text = raw.trim();
        if (text === '' || text.startsWith('//')) return;
        const setting = /^@(surface|zone|now)\s+(\S+)$/.exec(text);
        if (setting !== null) {
          const value = setting[2] as string;
          if (setting[1] === 'surface') surface = value === 'dm' ? 'dm' : 'slash';
          if (setting[1] === 'zone') zone = value;
          if (setting[1] === 'now') now = new Date(value);
          return;
        }
        const at = text.lastIndexOf('=>');
        if (at === -1) throw new Error(`${file}:${index + 1}: no "=>" in ${JSON.stringify(text)}`);
        lines.push({
          file,
          line: index + 1,
          text: text.slice(0, at).trim(),
          expected: text.slice(at + 2).trim(),
          surface,
          zone,
          now,
        });
      });
  }
  return lines;
}

function parse(text: string, line: CorpusLine): LookupRequest | DigestCommand | ParseError {
  if (subcommandOf(text, { conversation: line.surface === 'dm' }) === 'digest')
    return parseDigestCommand(text, { now: line.now, zone: line.zone });
  return parseLookup(text, {
    now: line.now,
    zone: line.zone,
    conversation: line.surface === 'dm',
  });
}

/** A reading without what only says how it was typed (the zone's name as given). */
function comparable(reading: LookupRequest | DigestCommand): string {
  if ('databases' in reading) {
    const { zoneAlias: _alias, ...rest } = reading;
    return JSON.stringify(rest);
  }
  if (reading.kind === 'create') return JSON.stringify(reading.spec);
  return JSON.stringify(reading);
}

/** The command a refusal closes on, when it is one the corpus can read again. */
function closingCommand(error: ParseError, surface: 'slash' | 'dm'): string | undefined {
  const tail = surface === 'dm' ? 'Try: ' : 'Try: /influencers ';
  const at = error.message.lastIndexOf(tail);
  return at === -1 ? undefined : error.message.slice(at + tail.length);
}

export function score(line: CorpusLine): Scored {
  const result = parse(line.text, line);
  const got = result instanceof ParseError ? `refused: ${result.message}` : comparable(result);
  if (line.expected.startsWith('!')) {
    if (!(result instanceof ParseError)) return { ...line, verdict: 'wrong', got };
    const words = line.expected
      .slice(1)
      .split('|')
      .map((word) => word.trim().toLowerCase())
      .filter((word) => word !== '');
    const message = result.message.toLowerCase();
    const said = words.every((word) => message.includes(word));
    const command = closingCommand(result, line.surface);
    const reads = command === undefined || !(parse(command, line) instanceof ParseError);
    return { ...line, verdict: said && reads ? 'helpful refusal' : 'unhelpful refusal', got };
  }
  const canonical = parse(line.expected, { ...line, surface: 'slash' });
  if (canonical instanceof ParseError) {
    throw new Error(
      `${line.file}:${line.line}: the label ${JSON.stringify(line.expected)} does not read: ${canonical.message}`,
    );
  }
  if (result instanceof ParseError) return { ...line, verdict: 'unhelpful refusal', got };
  return {
    ...line,
    verdict: comparable(result) === comparable(canonical) ? 'right' : 'wrong',
    got,
  };
}

export function scoreCorpus(): { lines: Scored[]; counts: Record<Verdict, number> } {
  const lines = readCorpus().map(score);
  const counts: Record<Verdict, number> = {
    right: 0,
    'helpful refusal': 0,
    wrong: 0,
    'unhelpful refusal': 0,
  };
  for (const line of lines) counts[line.verdict]++;
  return { lines, counts };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const all = process.argv.includes('--all');
  const { lines, counts } = scoreCorpus();
  for (const line of lines) {
    if (!all && (line.verdict === 'right' || line.verdict === 'helpful refusal')) continue;
    console.log(`${line.verdict.toUpperCase()} ${line.file}:${line.line} [${line.surface}]`);
    console.log(`  typed:    ${line.text}`);
    console.log(`  expected: ${line.expected}`);
    console.log(`  got:      ${line.got}`);
  }
  const total = lines.length;
  const share = (n: number) => `${((100 * n) / total).toFixed(1)} %`;
  console.log(
    `${total} phrasings: ${counts.right} right, ${counts['helpful refusal']} refused helpfully, ${counts.wrong} wrong, ${counts['unhelpful refusal']} refused unhelpfully (${share(counts['unhelpful refusal'])}; at most ${maxUnhelpfulShare * 100} %)`,
  );
  const failed = counts.wrong > 0 || counts['unhelpful refusal'] > total * maxUnhelpfulShare;
  process.exitCode = failed ? 1 : 0;
}
