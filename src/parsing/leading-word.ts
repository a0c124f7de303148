/**
 * How a person's text addresses the bot before it is read as a lookup: a greeting, a request for
 * help, a digest verb or another command word. The grammar takes any bare word as a phrase database
 * (`diabetes`), so these words are set apart first.
 */
import { digestVerbs } from '../model/commands.ts';
import { greetingWords } from './question.ts';
import { firstWord, type Subcommand, subcommandNamed } from './subcommands.ts';

/** `good morning` and the like: `good` alone is not a greeting. */
const greetingSecondWords = new Set(['morning', 'afternoon', 'evening', 'day']);

/**
 * Questions about the bot itself (`what can you do?`, `how does this work?`): asking for help,
 * whatever their first word.
 */
const helpQuestions =
  /^(?:what (?:can|do|does) (?:you|this(?: bot)?|it) do|what are you|how (?:do|does) (?:this|it|you) work|how do i use (?:this|it|you)|what can i ask(?: you)?|what do you know)\s*[?!.]*$/iu;

/** How the first word of a person's text addresses the bot, when it is not a lookup. */
export type LeadingWord =
  | { readonly kind: 'greeting' | 'help' }
  | { readonly kind: 'command'; readonly subcommand: Exclude<Subcommand, 'help'> }
  | { readonly kind: 'digest_verb'; readonly verb: string; readonly rest: string };

/**
 * Classifies text whose first word is a greeting (the parser's `greetingWords`), a request for
 * help, a digest verb without `digest`, or another subcommand word read in a conversation
 * (`subcommands.ts`); undefined for text to hand to the parser. The grammar takes any bare word as
 * a phrase database (`diabetes`), so without this rule `hi`, `help me` or `pause 3` would become
 * lookups of databases that do not exist. It looks at the first word only (trailing punctuation
 * aside: `hi!`, `help?`), and a quoted phrase (`"run" last week`) is never one of these words;
 * `plan` reads a question naming a database (`hello, who drove #bcsm?`) as the lookup it is before
 * asking it.
 */
export function leadingWord(text: string): LeadingWord | undefined {
  const { word: typed, rest } = firstWord(text);
  if (typed === '') return undefined;
  const raw = typed.toLowerCase();
  const word = raw === '?' ? raw : raw.replace(/[!?.,:;]+$/u, '');
  const subcommand = subcommandNamed(word, { conversation: true });
  if (subcommand === 'help' || helpQuestions.test(text.trim())) return { kind: 'help' };
  if (greetingWords.has(word)) return { kind: 'greeting' };
  const second = /^(\S+)/
    .exec(rest)?.[1]
    ?.toLowerCase()
    .replace(/[!?.,:;]+$/u, '');
  if (word === 'good' && second !== undefined && greetingSecondWords.has(second)) {
    return { kind: 'greeting' };
  }
  if (digestVerbs.has(word)) return { kind: 'digest_verb', verb: word, rest: rest.trim() };
  if (subcommand !== undefined) return { kind: 'command', subcommand };
  return undefined;
}
