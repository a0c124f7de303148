import { describe, expect, it } from 'vitest';
import {
  consoleCommandsText,
  consoleZoneErrorText,
  ignoredSlackSettingsText,
} from '../../src/render/console.ts';

describe('consoleZoneErrorText', () => {
  it('names the zone and an example of a valid one', () => {
    expect(consoleZoneErrorText('Mars/Olympus')).toBe(
      'Unknown time zone "Mars/Olympus" for --tz: use an IANA name such as Europe/Paris or UTC.',
    );
  });
});

describe('ignoredSlackSettingsText', () => {
  it.each([
    [[], undefined],
    [
      ['SLACK_API_URL'],
      'SLACK_API_URL is set but ignored here: the console starts when none of the Slack credentials (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_APP_TOKEN) is set.',
    ],
    [
      ['SLACK_API_URL', 'SLACK_ALLOWED_TEAM_IDS'],
      'SLACK_API_URL and SLACK_ALLOWED_TEAM_IDS are set but ignored here: the console starts when none of the Slack credentials (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_APP_TOKEN) is set.',
    ],
  ])('words %j', (names, expected) => {
    expect(ignoredSlackSettingsText(names)).toBe(expected);
  });
});

describe('consoleCommandsText', () => {
  it('shows a question as DM text, and the whole-day rule the help states', () => {
    const text = consoleCommandsText('Commands');
    expect(text).toContain('who drove #hcsm last week?');
    expect(text).toContain('a range ending on a date holds that day');
  });
});
