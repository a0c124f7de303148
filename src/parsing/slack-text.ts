/**
 * Slack's slash-command text is HTML-escaped and may carry channel references and typographic
 * quotes. Every grammar starts from the plain text this module returns, so that `#hcsm`,
 * `<#C0123|hcsm>` and `“hcsm”`-style input all read the same.
 */

const channelRef = /<#([A-Z0-9]+)\|([^>]+)>/g;
const doubleQuotes = /[\u201C\u201D\u201E\u201F\u00AB\u00BB\u2033]/g;
/** A single curly-quoted phrase; the closing quote must end the word so apostrophes inside stay. */
const singleQuoted = /(^|[\s,])\u2018([^\u2018\u201B]*?)\u2019(?=$|[\s,])/g;
const strayApostrophes = /[\u2018\u2019\u201B]/g;
const oddSpaces = /[\u00A0\u2000-\u200B\u2028\u2029\u202F\u205F\u3000\t\r\n]/g;
/** Every character the rewrites below start from: text without one is returned as it is. */
const rewritten =
  /[&<\u2018\u2019\u201B\u201C-\u201F\u00AB\u00BB\u2033\u00A0\u2000-\u200B\u2028\u2029\u202F\u205F\u3000\t\r\n]/;

/**
 * Turns Slack's `text` into what the person typed: decodes `&lt;` `&gt;` `&amp;`, rewrites a
 * named channel reference `<#C0123|hcsm>` to `#hcsm`, makes every double or paired single curly
 * quote a straight `"`, and every other space character a plain space. The text is NFC-normalised
 * first, so a decomposed `#café` and a composed one name the same hashtag. A reference without a name
 * (`<#C0123>`, `<#C0123|>`) is left as it is, so the grammar can report it rather than guess.
 */
export function normaliseSlackText(text: string): string {
  const composed = text.normalize('NFC');
  if (!rewritten.test(composed)) return composed;
  return composed
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(channelRef, (_, _id: string, name: string) => `#${name}`)
    .replace(/&amp;/g, '&')
    .replace(singleQuoted, (_, before: string, inner: string) => `${before}"${inner}"`)
    .replace(strayApostrophes, "'")
    .replace(doubleQuotes, '"')
    .replace(oddSpaces, ' ');
}
