/**
 * The words that open a subcommand, and which subcommand a person's text starts with. The slash
 * command's router, the DM's, the console, the lookup flow's usage and hints, the digest and
 * conference grammars and the docs test all read them here, so a word or an alias is added once.
 *
 * Decisions:
 * - After the slash command (and the console's `/influencers …`) the first word counts as typed,
 *   up to whitespace, in any case: anything else is a lookup, and a database may start with these
 *   letters (`watch-list`).
 * - In a conversation (a DM, a mention) a word may be followed by punctuation (`digests?`), since
 *   the digest grammar reads it so; `conference` is not a word there (a DM reads it as a lookup).
 * - `help` and `about` words get the usage from the lookup flow wherever they are typed; `digest`
 *   and `conference` have grammars of their own.
 */

/** What a subcommand word opens. */
export type Subcommand = 'help' | 'about' | 'digest' | 'conference';

interface SubcommandEntry {
  /** Lower case. */
  readonly words: readonly string[];
  /** Also read in a DM or a mention, without the slash command. */
  readonly inConversation: boolean;
}

const subcommands: Readonly<Record<Subcommand, SubcommandEntry>> = {
  help: { words: ['help', '?', '-h', '--help', 'usage', 'commands'], inConversation: true },
  about: { words: ['config', 'version', 'about'], inConversation: true },
  // `watch` starts a digest command after the slash command, so in a DM or a mention it is one too.
  digest: { words: ['digest', 'digests', 'watch'], inConversation: true },
  conference: { words: ['conference', 'conferences'], inConversation: false },
};

/** Every subcommand word, lower case, and what it opens. */
export const subcommandWords: ReadonlyMap<string, Subcommand> = new Map(
  Object.entries(subcommands).flatMap(([subcommand, entry]) =>
    entry.words.map((word) => [word, subcommand as Subcommand] as const),
  ),
);

export interface SubcommandOptions {
  /** The text came from a DM or a mention rather than after the slash command. */
  readonly conversation?: boolean;
}

/** The subcommand one word opens, in any case; undefined for any other word. */
export function subcommandNamed(
  word: string,
  options: SubcommandOptions = {},
): Subcommand | undefined {
  const subcommand = subcommandWords.get(word.toLowerCase());
  if (subcommand === undefined) return undefined;
  return options.conversation && !subcommands[subcommand].inConversation ? undefined : subcommand;
}

const escaped = (word: string) => word.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** A conversation's words, longest first, each ending where no letter, digit or `_` follows. */
const conversationLead = new RegExp(
  `^(${[...subcommandWords.keys()]
    .filter((word) => subcommandNamed(word, { conversation: true }) !== undefined)
    .sort((a, b) => b.length - a.length)
    .map(escaped)
    .join('|')})(?!\\w)`,
  'i',
);

/**
 * The subcommand the text starts with, read as the surface it came from reads it (see the
 * decisions above); undefined for a lookup. Routing asks this before any grammar runs, so a
 * digest or conference command never reaches the lookup parser.
 */
export function subcommandOf(
  text: string,
  options: SubcommandOptions = {},
): Subcommand | undefined {
  if (!options.conversation) return subcommandNamed(firstWord(text).word);
  const word = conversationLead.exec(text.trim())?.[1];
  return word === undefined ? undefined : subcommandNamed(word, options);
}

/** Splits off the first word (the verb of a subcommand) from the rest of the text. */
export function firstWord(text: string): { readonly word: string; readonly rest: string } {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(text.trim());
  return match ? { word: match[1] ?? '', rest: match[2] ?? '' } : { word: '', rest: '' };
}
