/**
 * How a person's text addresses the bot before it is read as a lookup: a greeting, a request for
 * help, a digest verb or another command word. The grammar takes any bare word as a phrase database
 * (`diabetes`), so these words are set apart first.
 */
import { digestVerbs } from '../model/commands.ts';
import { greetingWords } from './question.ts';

/** `good morning` and the like: `good` alone is not a greeting. */
const greetingSecondWords = new Set(['morning', 'afternoon', 'evening', 'day']);
const helpFirstWords = new Set(['help', '?', '-h', '--help', 'usage', 'commands']);
/**
 * Other words that read as a command to the bot; verbs other modules own are routed earlier.
 * `watch` starts a digest command after the slash command, so in a DM or a mention it is one too.
 */
const otherCommandWords = new Set(['config', 'version', 'about', 'digest', 'digests', 'watch']);

/** How the first word of a person's text addresses the bot, when it is not a lookup. */
export type LeadingWord =
  | { readonly kind: 'greeting' | 'help' | 'command' }
  | { readonly kind: 'digest_verb'; readonly verb: string; readonly rest: string };

/**
 * Classifies text whose first word is a greeting (the parser's `greetingWords`), a request for
 * help, a digest verb without `digest`, or another command word; undefined for text to hand to the
 * parser. The grammar takes any bare word as a phrase database (`diabetes`), so without this rule
 * `hi`, `help me` or `pause 3` would become lookups of databases that do not exist. It looks at the
 * first word only (trailing punctuation aside: `hi!`, `help?`), and a quoted phrase (`"run" last
 * week`) is never one of these words; `plan` reads a question naming a database (`hello, who drove
 * #bcsm?`) as the lookup it is before asking it.
 */
export function leadingWord(text: string): LeadingWord | undefined {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(text.trim());
  if (!match) return undefined;
  const raw = (match[1] ?? '').toLowerCase();
  const rest = match[2] ?? '';
  const word = raw === '?' ? raw : raw.replace(/[!?.,:;]+$/u, '');
  if (helpFirstWords.has(word)) return { kind: 'help' };
  if (greetingWords.has(word)) return { kind: 'greeting' };
  const second = /^(\S+)/
    .exec(rest)?.[1]
    ?.toLowerCase()
    .replace(/[!?.,:;]+$/u, '');
  if (word === 'good' && second !== undefined && greetingSecondWords.has(second)) {
    return { kind: 'greeting' };
  }
  if (digestVerbs.has(word)) return { kind: 'digest_verb', verb: word, rest: rest.trim() };
  if (otherCommandWords.has(word)) return { kind: 'command' };
  return undefined;
}
