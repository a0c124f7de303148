/**
 * Answers about one word, kept per word. Every clause of a grammar looks at the words around each
 * position, so one command asks the same question of a word many times, and the commands people
 * type share most of their words.
 */

/** Most words kept; past it the cache starts afresh, so no text can grow it without bound. */
const maxWords = 5_000;
/** Longer words are answered afresh: no name or keyword is this long. */
const maxWordLength = 64;

/** `read`, answered once per word (as typed: callers fold case themselves when they mean to). */
export function perWord<T>(read: (word: string) => T): (word: string) => T {
  const known = new Map<string, T>();
  return (word) => {
    if (word.length > maxWordLength) return read(word);
    const kept = known.get(word);
    if (kept !== undefined || known.has(word)) return kept as T;
    const value = read(word);
    if (known.size >= maxWords) known.clear();
    known.set(word, value);
    return value;
  };
}
