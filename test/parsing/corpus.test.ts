import { describe, expect, it } from 'vitest';
import { maxUnhelpfulShare, type Scored, scoreCorpus } from './corpus/score.ts';

const shown = (line: Scored): string =>
  `${line.file}:${line.line} [${line.surface}] ${line.text} => ${line.expected}; got ${line.got}`;

describe('the corpus of phrasings a new user types (test/parsing/corpus)', () => {
  const { lines, counts } = scoreCorpus();

  it('holds at least 500 phrasings', () => {
    expect(lines.length).toBeGreaterThanOrEqual(500);
  });

  it('reads none of them wrongly', () => {
    expect(lines.filter((line) => line.verdict === 'wrong').map(shown)).toEqual([]);
  });

  it(`refuses at most ${maxUnhelpfulShare * 100} % of them unhelpfully`, () => {
    const unhelpful = lines.filter((line) => line.verdict === 'unhelpful refusal');
    expect(unhelpful.length, unhelpful.map(shown).join('\n')).toBeLessThanOrEqual(
      lines.length * maxUnhelpfulShare,
    );
    expect(counts.right + counts['helpful refusal']).toBeGreaterThan(0);
  });
});
