/**
 * Words only the local console prints (it has no Slack to render Block Kit in): they live here with
 * every other user-facing text.
 */

/** `--tz` named a zone this machine does not know. */
export function consoleZoneErrorText(zone: string): string {
  return `Unknown time zone "${zone}" for --tz: use an IANA name such as Europe/Paris or UTC.`;
}

/**
 * Slack settings found in the environment that the console does not use: without the Slack
 * credentials they cannot take effect, and saying so beats letting someone think they do.
 */
export function ignoredSlackSettingsText(names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  const list = names.join(' and ');
  return (
    `${list} ${names.length === 1 ? 'is' : 'are'} set but ignored here: the console starts when ` +
    'none of the Slack credentials (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_APP_TOKEN) is set.'
  );
}
