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

/** Splits off the first word (the verb of a subcommand) from the rest of the text. */
export function firstWord(text: string): { readonly word: string; readonly rest: string } {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(text.trim());
  return match ? { word: match[1] ?? '', rest: match[2] ?? '' } : { word: '', rest: '' };
}
