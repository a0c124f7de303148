/**
 * Questions to the bot (`who drove #hcsm last week?`, `hello, top influencers for #bcsm
 * yesterday`): the words before the databases that ask rather than name one. They are dropped
 * wherever the question is typed (a DM, a mention, after the slash command, the modal, the CLI),
 * never read as a phrase database.
 */
import { readDatabaseToken } from './databases.ts';
import { boundedText } from './limits.ts';
import { type Token, tokenize } from './tokens.ts';
import { countWords, metricAdjectives } from './vocabulary.ts';

/** Greetings that may open a message to the bot. */
export const greetingWords: ReadonlySet<string> = new Set([
  'hi',
  'hello',
  'hey',
  'hiya',
  'howdy',
  'greetings',
  'thanks',
  'thank',
  'thx',
  'cheers',
]);

/** Words that make the opening a question or a request, not a database. */
const questionWords: ReadonlySet<string> = new Set([
  'who',
  'whos',
  "who's",
  'whom',
  'whose',
  'what',
  'which',
  'show',
  'list',
  'give',
  'tell',
  'find',
  'get',
  'top',
  'influencers',
  'influencer',
  'influential',
  'drove',
  'drive',
  'drives',
  'driving',
  'led',
  'lead',
  'leads',
  'leading',
  'voices',
  'people',
  'accounts',
  'posters',
  'tweeters',
  'biggest',
  'loudest',
  'most',
  // `how did @DrFerreiraI do in #hcsm?`: one person's lookup (`person.ts`).
  'how',
]);

/** Words a question holds around its question words (`who were the top voices in …`). */
const fillerWords: ReadonlySet<string> = new Set([
  'me',
  'us',
  'the',
  'for',
  'of',
  'on',
  'in',
  'about',
  'were',
  'was',
  'are',
  'is',
  'been',
  'a',
  'an',
  'please',
  'can',
  'could',
  'would',
  'you',
  'i',
  'we',
  'see',
  'conversation',
  'chat',
  'hashtag',
  'database',
  'behind',
  'did',
  'does',
  'do',
]);

/** Nouns after `top` that make it a question word rather than `top N`. */
export const topNouns: ReadonlySet<string> = new Set([
  'influencers',
  'kols',
  'influencer',
  'voices',
  'people',
  'accounts',
  'posters',
  'tweeters',
]);

/** How a command opens: greeting and question words to leave out before its databases. */
export interface LeadIn {
  /** Where the tokens to leave out are, in order (a `top 5` among them stays). */
  readonly drop: readonly number[];
  /** The opening holds a question word (`who`, `top influencers`), not only a greeting. */
  readonly asks: boolean;
}

/**
 * The opening of a command that greets or asks: greetings (`hello,`), then a run of question and
 * filler words holding at least one question word (`who drove`, `show me`, `top influencers for`)
 * when a database follows it or it is two words or more; a count in it (`top 5 influencers for`)
 * stays, as the option it is.
 * Nothing is left out when the opening holds another word (`breast cancer #bcsm` keeps its phrase).
 */
export function leadIn(tokens: readonly Token[]): LeadIn {
  const greeting: number[] = [];
  let i = 0;
  while (greetingWords.has(lowerWord(tokens[i]) ?? '')) {
    greeting.push(i++);
    if (lowerWord(tokens[i]) === 'you') greeting.push(i++);
    while (tokens[i]?.kind === 'comma') greeting.push(i++);
  }
  const question: number[] = [];
  let asks = false;
  for (let j = i; ; j++) {
    const word = lowerWord(tokens[j]);
    if (word === undefined) break;
    // "the top posts": not a question's words but a request the parser refuses with a reason.
    if (word === 'top' && contentNouns.has(lowerWord(tokens[j + 1]) ?? '')) break;
    if (word === 'top' && /^\d{1,3}$/.test(lowerWord(tokens[j + 1]) ?? '')) {
      j++;
      continue;
    }
    // "the 10 most influential people in", "ten top voices in": the count and the word after it
    // stay, as the option they are; so does what a ranking is by ("the most retweeted in").
    if (isCount(word) && questionWords.has(lowerWord(tokens[j + 1]) ?? '')) {
      j++;
      continue;
    }
    // "the most influential people" asks for the influencers themselves, as "top voices" does.
    const adjective = lowerWord(tokens[j + 1]) ?? '';
    if (word === 'most' && adjective !== 'influential' && metricAdjectives.has(adjective)) {
      j++;
      continue;
    }
    if (questionWords.has(word)) asks = true;
    // "who was trending in #bcsm": who the top voices were, not how the ranking moved.
    else if (asks && (word === 'trending' || word === 'hot')) asks = true;
    else if (!fillerWords.has(word)) break;
    question.push(j);
  }
  const last = question.at(-1);
  const next = last === undefined ? undefined : tokens[last + 1];
  const followed = next !== undefined && next.kind !== 'dash' && next.kind !== 'comma';
  const opens = question.length >= 2 || (next !== undefined && isMarkedDatabase(next));
  if (asks && followed && opens) return { drop: [...greeting, ...question], asks: true };
  return { drop: greeting, asks: false };
}

/**
 * True when `text` greets or asks before naming a database with a mark of its own (`hello, who
 * drove #bcsm`, `show me "breast cancer"`): it is a lookup, whatever its first word would say.
 */
export function readsAsQuestion(text: string): boolean {
  let tokens: Token[];
  try {
    tokens = tokenize(boundedText(text));
  } catch {
    return false;
  }
  const opening = leadIn(tokens);
  const last = opening.drop.at(-1);
  if (last === undefined) return false;
  return tokens.slice(last + 1).some((token) => isMarkedDatabase(token));
}

/** A hashtag, quoted phrase or group: a database wherever it stands. */
export function isMarkedDatabase(token: Token): boolean {
  if (token.kind === 'quoted') return readDatabaseToken(token).kind === 'item';
  return (
    token.kind === 'word' &&
    (token.text.startsWith('#') || /^group:/i.test(token.text)) &&
    readDatabaseToken(token).kind === 'item'
  );
}

const contentNouns: ReadonlySet<string> = new Set(['posts', 'tweets', 'content', 'links']);

/** A count in digits or in words (`10`, `ten`). */
function isCount(word: string): boolean {
  return /^\d{1,3}$/.test(word) || countWords.has(word);
}

/** A plain word, lower-case with trailing commas ignored; undefined for anything else. */
function lowerWord(token: Token | undefined): string | undefined {
  if (token?.kind !== 'word') return undefined;
  return token.lower;
}
