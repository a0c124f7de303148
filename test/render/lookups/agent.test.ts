import { describe, expect, it } from 'vitest';
import { UnknownDatabaseError } from '../../../src/errors.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import { parseLookup } from '../../../src/parsing/index.ts';
import { renderError } from '../../../src/render/errors.ts';
import {
  escapeMarkdown,
  markdownPieces,
  renderSessionTitle,
  renderUnderstood,
  renderWindowFailure,
  renderWindowRows,
  renderWindowTask,
  sessionTitleMax,
  streamLimits,
} from '../../../src/render/lookups/agent.ts';

const now = new Date('2026-11-21T15:00:00Z');
const request = (text: string, zone = 'America/New_York') =>
  parseLookup(text, { now, zone, conversation: true }) as LookupRequest;

describe('renderUnderstood', () => {
  it('says the databases, the window in its zone’s words and the zone', () => {
    expect(renderUnderstood(request('#hcsm last week'), now)).toBe(
      'Looking up **#hcsm** · Nov 9 – Nov 15, whole days, EST · times in America/New_York\n',
    );
  });

  it('escapes what a person typed and adds the note in italics', () => {
    const text = renderUnderstood(request('"*bold* [x](y)" yesterday'), now, 'Times are in UTC.');
    expect(text).toContain('"\\*bold\\* \\[x\\]\\(y\\)"');
    expect(text).toMatch(/\n_Times are in UTC\._\n$/);
  });

  it('names a trend and a person', () => {
    expect(renderUnderstood(request('#hcsm weekly'), now)).toContain('(week by week)');
    expect(renderUnderstood(request('@DrJane in #hcsm last month'), now)).toContain(
      '**@DrJane in #hcsm**',
    );
  });
});

describe('window tasks', () => {
  it('titles a window with its databases and window', () => {
    expect(renderWindowTask(request('#hcsm, #bcsm yesterday'), now)).toBe(
      '#hcsm, #bcsm · Nov 20, whole day, EST',
    );
  });

  it.each([
    [0, 'nobody ranked'],
    [1, '1 person ranked'],
    [25, '25 people ranked'],
  ])('ends with %d rows as %j', (rows, words) => {
    expect(renderWindowRows(rows)).toBe(words);
  });

  it('ends a failure with the lookup’s own words, within 256 characters', () => {
    const error = new UnknownDatabaseError(`#${'x'.repeat(400)}`);
    const words = renderWindowFailure(error);
    expect(words.length).toBeLessThanOrEqual(streamLimits.taskText);
    expect(renderError(error).text.startsWith(words.slice(0, 40))).toBe(true);
  });
});

describe('renderSessionTitle', () => {
  it('names the session after its databases and window', () => {
    expect(renderSessionTitle(request('#hcsm last week'), now)).toBe(
      '#hcsm · Nov 9 – Nov 15, whole days, EST',
    );
  });

  it('stays within the 200 characters Slack takes, however many databases', () => {
    const databases = Array.from({ length: 60 }, (_, i) => `#tag${i}`);
    const title = renderSessionTitle({ ...request('#hcsm yesterday'), databases }, now);
    expect(title.length).toBeGreaterThan(0);
    expect(title.length).toBeLessThanOrEqual(sessionTitleMax);
  });
});

describe('markdownPieces', () => {
  it('keeps short text whole', () => {
    expect(markdownPieces('hello\n')).toEqual(['hello\n']);
    expect(markdownPieces('')).toEqual([]);
  });

  it('cuts long text at line ends, each piece within 12,000 characters', () => {
    const line = `${'a'.repeat(99)}\n`;
    const text = line.repeat(250);
    const pieces = markdownPieces(text);
    expect(pieces.join('')).toBe(text);
    expect(pieces.every((piece) => piece.length <= 12_000 && piece.endsWith('\n'))).toBe(true);
    expect(pieces).toHaveLength(3);
  });

  it('cuts a line longer than a piece where it must', () => {
    const pieces = markdownPieces('b'.repeat(25_000));
    expect(pieces.map((piece) => piece.length)).toEqual([12_000, 12_000, 1_000]);
  });
});

describe('escapeMarkdown', () => {
  it('escapes formatting and links, not hashtags', () => {
    expect(escapeMarkdown('#hcsm _a_ `b` <c>')).toBe('#hcsm \\_a\\_ \\`b\\` \\<c\\>');
  });
});
