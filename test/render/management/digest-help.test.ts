import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import { renderDigestHelp } from '../../../src/render/management/digest-help.ts';
import { texts } from '../helpers.ts';

describe('renderDigestHelp', () => {
  it('gives the examples, the schedule forms and the management commands', () => {
    const message = renderDigestHelp();
    const lines = texts(message.blocks);
    expect(lines[2]).toBe(
      '*Create one*\n' +
        '• `/influencers digest #hcsm every monday at 9am`\n' +
        '• `/influencers digest #bcsm, group:Oncology weekdays at 8:30`\n' +
        '• `/influencers digest #hcsm every monday at 9am last week doctors to me`\n' +
        '• `/influencers digest "patient safety" every month on the 1st at 10:00 in Europe/London`\n' +
        '• `/influencers digest #hcsm cron "0 9 * * 1"`',
    );
    expect(lines[3]).toContain('use `on the last day of every month` for month ends');
    expect(lines[3]).toContain('Without a time it runs at 09:00');
    expect(lines[4]).toContain('`/influencers digest pause <id>`');
    expect(checkBlockKitLimits(message)).toEqual([]);
  });
});
