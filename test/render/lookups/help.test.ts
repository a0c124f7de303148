import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/errors.ts';
import { digestVerbs } from '../../../src/model/commands.ts';
import { parseLookup } from '../../../src/parsing/index.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import {
  conferenceInConversationHint,
  digestInConversationHint,
  digestVerbHint,
  helpExamples,
  renderHelp,
} from '../../../src/render/lookups/help.ts';
import { toPlainText } from '../../../src/render/text.ts';

describe('renderHelp', () => {
  it('lists real examples under the command', () => {
    const text = toPlainText(renderHelp());
    expect(text).toContain(
      [
        'Examples',
        '• `/influencers #hcsm last week`',
        '• `/influencers "breast cancer", #bcsm since Oct 1 top 20`',
        '• `/influencers group:Oncology yesterday in Europe/London`',
        '• `/influencers #pharma past 48 hours`',
        '• `/influencers #lcsm from 2026-09-01 to 2026-09-08 tz Asia/Tokyo`',
        '• `/influencers 4711 last month limit 5`',
        '• `/influencers #hcsm and #bcsm Oct 1 - Oct 31 vs previous period by mentions`',
      ].join('\n'),
    );
  });

  it('summarises databases, windows, zone and top, and the DM and mention use', () => {
    const text = toPlainText(renderHelp());
    expect(text).toMatch(/^How to use \/influencers\n=+/);
    expect(text).toContain('Databases: hashtags `#hcsm`, phrases in quotes `"patient safety"`');
    expect(text).toContain('Window: `last week`, `yesterday`');
    expect(text).toContain('Time zone: yours from your Slack profile, or `in Europe/London`');
    expect(text).toContain(
      'How many: `top 20` or `limit 20`, from 1 to 100 (default 10); over 10 comes as a table, and an export holds the whole ranking (up to 500, or `top N`).',
    );
    expect(text).toContain(
      'A range that ends on a date includes that whole day; an end with a time stops at that time.',
    );
    expect(text).toContain('Compare and rank: `vs previous period`');
    expect(text).toContain(
      'Show as: `table` (the whole ranking), `chart` or `chart categories`; `export` (or `csv`) for a CSV file.',
    );
    expect(text).toContain('or just ask (`who drove #hcsm last week?`)');
    expect(text).toContain(
      'In a direct message send me the same text without `/influencers` (for example `#hcsm yesterday`)',
    );
  });

  it('names the other commands: digests, watches, the list and the digest help', () => {
    const text = toPlainText(renderHelp());
    expect(text).toContain(
      'Digests and watches, created in the channel that should receive them: `/influencers digest #hcsm every monday at 9am` posts the ranking there on a schedule; `/influencers watch #hcsm top 10` posts when someone new enters the top 10; `/influencers digests` lists',
    );
    expect(text).toContain('`/influencers digest help`');
  });

  it('says where a digest typed in a conversation is created', () => {
    expect(digestInConversationHint('digest #bcsm every friday at 5pm')).toBe(
      'Digests and watches are created where they post: type `/influencers digest #bcsm every friday at 5pm` in the channel that should receive them, or type it in my DM to get it there. Here I answer lookups, such as `#hcsm last week`.',
    );
  });

  it('says where a conference typed in a conversation is created', () => {
    expect(conferenceInConversationHint('conference #hcsm today')).toBe(
      'A conference keeps a live leaderboard in a channel: type `/influencers conference #hcsm today` in the channel that should show it. Here I answer lookups, such as `#hcsm today`.',
    );
  });

  it('uses the configured command name', () => {
    const message = renderHelp({ command: '/who-drove' });
    expect(message.text).toBe('How to use /who-drove: for example /who-drove #hcsm last week');
    expect(toPlainText(message)).toContain('• `/who-drove #hcsm last week`');
  });

  it('stays within Block Kit limits', () => {
    expect(checkBlockKitLimits(renderHelp())).toEqual([]);
  });
});

describe('help examples', () => {
  const context = { now: new Date('2026-11-21T15:30:00Z'), zone: 'America/New_York' };

  it.each(helpExamples)('are accepted by the parser: %s', (example) => {
    expect(parseLookup(example, context)).not.toBeInstanceOf(ParseError);
  });

  it.each([
    '#hcsm last week',
    '#hcsm yesterday',
    '#hcsm this month',
    '#hcsm last quarter',
    '#hcsm past 48 hours',
    '#hcsm 10d',
    '#hcsm since Oct 1',
    '#hcsm from 2026-09-01 to 2026-09-08',
    '#hcsm Sep 1 through Sep 8',
    '"patient safety" in Europe/London',
    'group:"Rare Diseases" tz America/New_York',
    '4711 tz:UTC top 20',
    '#hcsm limit 20',
  ])('include grammar fragments the parser accepts: %s', (text) => {
    expect(parseLookup(text, context)).not.toBeInstanceOf(ParseError);
  });
});

describe('renderHelp with a hint', () => {
  it('puts the hint first and makes it the notification text', () => {
    const hint = digestVerbHint('pause', '3', '/influencers');
    const message = renderHelp({ command: '/influencers', hint });
    expect(message.text).toBe(hint);
    expect(message.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: `:bulb: ${hint}` },
    });
    expect(message.blocks.slice(1)).toEqual(renderHelp({ command: '/influencers' }).blocks);
    expect(checkBlockKitLimits(message)).toEqual([]);
  });
});

describe('digestVerbHint', () => {
  it.each([
    [
      'pause',
      'X',
      'Did you mean `/influencers digest pause X`? Digest commands start with `digest`.',
    ],
    [
      'stop',
      '3',
      'Did you mean `/influencers digest pause 3`? Digest commands start with `digest`.',
    ],
    [
      'delete',
      '7',
      'Did you mean `/influencers digest remove 7`? Digest commands start with `digest`.',
    ],
    [
      'run',
      '',
      "Did you mean `/influencers digest run &lt;id&gt;`? Digest commands start with `digest`; `/influencers digests` lists this channel's digests with their ids.",
    ],
    [
      'list',
      '',
      "Did you mean `/influencers digests`? It lists this channel's digests; digest commands start with `digest`.",
    ],
    [
      'schedule',
      '#hcsm every monday at 9am',
      'Did you mean `/influencers digest #hcsm every monday at 9am`? Digest commands start with `digest`.',
    ],
  ])('suggests the digest command for %s %j', (verb, rest, expected) => {
    expect(digestVerbHint(verb, rest, '/influencers')).toBe(expected);
  });

  it.each([...digestVerbs])(
    'hints the digest command for every digest verb: %s',
    (verb, action) => {
      const expected =
        action === 'list'
          ? "Did you mean `/influencers digests`? It lists this channel's digests; digest commands start with `digest`."
          : action === 'create'
            ? 'Did you mean `/influencers digest #hcsm every monday at 9am`? Digest commands start with `digest`.'
            : `Did you mean \`/influencers digest ${action} 7K3M9Q\`? Digest commands start with \`digest\`.`;
      expect(digestVerbHint(verb, action === 'create' ? '' : '7K3M9Q')).toBe(expected);
    },
  );

  it('escapes what the person typed', () => {
    expect(digestVerbHint('pause', '<!channel>')).toContain('digest pause &lt;!channel&gt;');
  });
});
