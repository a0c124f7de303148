/**
 * The text a person addressed to the bot, without the mention that addressed it. Everything else
 * (Slack's HTML escaping, channel links, curly quotes) is left to the parser, which reads Slack's
 * raw text itself.
 */
export function typedText(slackText: string | undefined, botUserId?: string): string {
  let text = slackText ?? '';
  if (botUserId !== undefined) text = text.replaceAll(`<@${botUserId}>`, ' ');
  // A mention leads the text of every app_mention, whatever id the bot has in this workspace.
  return text.replace(/^\s*<@[UW][A-Z0-9]+(?:\|[^>]*)?>/, ' ').trim();
}
