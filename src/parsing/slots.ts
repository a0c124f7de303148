/**
 * Reading a lookup by its slots: once a database says it is one (`#lcsm`, `"health equity"`,
 * `group:Oncology`), the words around the slots are the request's scaffolding or words it left
 * out, never more databases.
 *
 * - Scaffolding (`scaffolding.ts`) is dropped wherever it stands, and so is the preposition that
 *   leads to a marked database (`rank in #hcsm`, `what did #pharma look like`).
 * - A plain phrase beside a marked database is a database when its words can make a name (`#hcsm
 *   ASCO`) or a separator lists it (`#hcsm, breast cancer`); loose words no name holds
 *   (`#hcsm; DROP TABLE digests;--`) are left out of the lookup and named in the answer, which
 *   offers to add them.
 * - A statement after `;` that opens on a word the grammar does not know (`#hcsm; DROP TABLE
 *   digests;--`) is left out whole, never read word by word (`TABLE` is no presentation there).
 * - Without a marked database nothing changes: `breast cancer last week` stays a phrase.
 */
import type { DatabaseItem } from './databases.ts';
import { isPhraseWord } from './known-words.ts';
import { isMarkedDatabase } from './question.ts';
import { isScaffolding } from './scaffolding.ts';
import type { Token } from './tokens.ts';

/** Prepositions that lead to the database after them (`in #hcsm`, `about "clinical trials"`). */
const databaseLeads: ReadonlySet<string> = new Set([
  'in',
  'on',
  'for',
  'of',
  'at',
  'about',
  'across',
  'within',
  'around',
]);

/** The tokens before a statement `;` opens, and that statement as typed when it is left out. */
export interface Statement {
  readonly tokens: readonly Token[];
  readonly leftOut: string | undefined;
}

/**
 * Beside a marked database, the words after a `;` whose first word no clause or vocabulary knows,
 * and that no name holds (`#hcsm; DROP TABLE digests;--`): a second statement, left out whole.
 * A `;` before words the grammar reads or names (`#hcsm; last week`, `#hcsm; #bcsm`, `#hcsm;
 * breast cancer`) separates them as a comma would.
 */
export function firstStatement(text: string, tokens: readonly Token[]): Statement {
  if (!text.includes(';')) return { tokens, leftOut: undefined };
  for (let i = 1; i < tokens.length; i++) {
    const before = tokens[i - 1] as Token;
    const token = tokens[i] as Token;
    if (!text.slice(before.to - 1, token.from).includes(';')) continue;
    const opens = tokens.slice(0, i);
    if (!isPhraseWord(token) || !namesMarkedDatabase(opens)) continue;
    // "#hcsm; breast cancer": names listed, as a comma lists them.
    const rest = tokens.slice(i);
    if (rest.every((word) => word.kind !== 'word' || nameWord.test(word.text))) continue;
    const last = tokens.at(-1) as Token;
    return { tokens: opens, leftOut: text.slice(token.from, last.to) };
  }
  return { tokens, leftOut: undefined };
}

/** Words that ask how one person's rank moved, which their answer shows anyway. */
const personTrendWords: ReadonlySet<string> = new Set(['trend', 'trends', 'trending', 'trended']);

/** True when the command names a database by a mark of its own. */
export function namesMarkedDatabase(tokens: readonly Token[]): boolean {
  return tokens.some(isMarkedDatabase);
}

/**
 * The tokens the grammar reads: without scaffolding and the prepositions before a marked
 * database when the command names one, else as they are.
 */
export function slotTokens(typed: readonly Token[]): Token[] {
  if (!namesMarkedDatabase(typed)) return [...typed];
  const tokens = withCategoryQuestions(typed);
  const person = tokens.some((token) => token.kind === 'word' && token.text.startsWith('@'));
  return tokens.filter((token, i) => {
    if (token.kind !== 'word') return true;
    // "change from Q2 to Q3": the verb that makes a range two periods compared stays.
    if (comparesRange(token, tokens[i + 1])) return true;
    // "only doctors" leads to who people are, whatever comes before it; a closing "only"
    // ("media only") is scaffolding.
    if (token.lower === 'only' && tokens[i + 1]?.kind === 'word') return true;
    if (isScaffolding(token.text)) return false;
    // "what did #pharma look like": no ranking by likes.
    if (token.lower === 'like' && /^look(s|ed)?$/.test(tokens[i - 1]?.lower ?? '')) return false;
    // "@x trend in #hcsm": one person's answer holds their rank week by week.
    if (person && personTrendWords.has(token.lower)) return false;
    const next = tokens[i + 1];
    return !(databaseLeads.has(token.lower) && next !== undefined && isMarkedDatabase(next));
  });
}

/** `change from`, `changed between`: the comparison grammar reads two periods after it. */
function comparesRange(token: Token, next: Token | undefined): boolean {
  return (
    /^chang(e|ed|es)$/.test(token.lower) &&
    next !== undefined &&
    (next.lower === 'from' || next.lower === 'between')
  );
}

/** Questions about who the people are, which the chart of categories answers. */
const categoryQuestions: readonly (readonly string[])[] = [
  ['stakeholder', 'mix'],
  ['mix', 'of', 'stakeholders'],
  ['who', 'are', 'these', 'people'],
  ['who', 'are', 'they'],
  ['what', 'kind', 'of', 'people'],
  ['what', 'kinds', 'of', 'people'],
];

const categoryOpenings: ReadonlySet<string> = new Set(
  categoryQuestions.map((words) => words[0] ?? ''),
);

/**
 * The tokens with each question about who the people are (`stakeholder mix`, `who are these
 * people`) read as `chart categories`, the answer that shows it; offsets stay those typed.
 */
function withCategoryQuestions(tokens: readonly Token[]): Token[] {
  if (!tokens.some((token) => categoryOpenings.has(token.lower))) return [...tokens];
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const words = categoryQuestions.find((question) =>
      question.every((word, j) => tokens[i + j]?.kind === 'word' && tokens[i + j]?.lower === word),
    );
    if (words === undefined) {
      out.push(tokens[i] as Token);
      continue;
    }
    const first = tokens[i] as Token;
    const last = tokens[i + words.length - 1] as Token;
    const word = (text: string): Token => ({
      kind: 'word',
      text,
      lower: text,
      from: first.from,
      to: last.to,
    });
    out.push(word('chart'), word('categories'));
    i += words.length - 1;
  }
  return out;
}

/** The databases a lookup names, and the loose words it left out of them. */
export interface Slots {
  readonly databases: readonly DatabaseItem[];
  /** The loose phrases as typed (`digests;--`), in order. */
  readonly leftOut: readonly string[];
}

/** A word a database's name can hold: letters and digits, joined by `'`, `&`, `.` or `-`. */
const nameWord = /^[\p{L}\p{N}]+(?:['\u2019&.-][\p{L}\p{N}]+)*$/u;

/**
 * Splits the scanned items: beside a marked database, a loose plain phrase that no name holds
 * (`digests;--`, `tz=Europe/Madrid`) is left out; a phrase of name words (`#hcsm ASCO`) stays a
 * database, as do listed ones, IDs and every marked item.
 */
export function splitLeftovers(items: readonly DatabaseItem[], marked: boolean): Slots {
  if (!marked) return { databases: items, leftOut: [] };
  const databases: DatabaseItem[] = [];
  const leftOut: string[] = [];
  for (const item of items) {
    const named = item.name.split(' ').every((word) => nameWord.test(word));
    if (item.plain && item.joined !== true && !named) leftOut.push(item.fragment);
    else databases.push(item);
  }
  return { databases, leftOut };
}
