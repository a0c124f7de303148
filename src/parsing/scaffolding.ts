/**
 * The words that hold a request together without naming anything in it: question words, the
 * verbs people rank and talk with (`got`, `drove`, `led`, `topped`, `talking`, `covering`,
 * `rank`), pronouns, determiners and analysts' chatter. Beside a database that says it is one
 * (`#lcsm`, `"health equity"`, `group:Oncology`) they are dropped wherever they stand (`who got
 * the most mentions in #lcsm`); at the edges of a phrase they are trimmed (`researchers talking
 * about "clinical trials"`); inside one they stay, so `people with diabetes` keeps its words.
 *
 * A closed list: a word missing from it is read as a word of a database, or reported as left out
 * beside one, never silently dropped.
 */

const scaffolding: ReadonlySet<string> = new Set([
  // Question words and the auxiliaries that ask.
  'where',
  'when',
  'why',
  'how',
  'does',
  'do',
  'did',
  'has',
  'have',
  'had',
  'should',
  'shall',
  'will',
  'might',
  'must',
  'be',
  'been',
  'being',
  // Verbs of ranking and talking.
  'got',
  'gets',
  'getting',
  'drive',
  'drives',
  'driving',
  'led',
  'lead',
  'leads',
  'leading',
  'topped',
  'tops',
  'topping',
  'talk',
  'talks',
  'talked',
  'talking',
  'tweeting',
  'posting',
  'discussing',
  'covering',
  'cover',
  'covers',
  'covered',
  'rank',
  'ranks',
  'ranked',
  'rated',
  'matter',
  'matters',
  'mattered',
  'follow',
  'pull',
  'fetch',
  'move',
  'moved',
  'up',
  'down',
  'change',
  'changed',
  'changes',
  'changing',
  'look',
  'looks',
  'looked',
  // Pronouns and determiners.
  'they',
  'their',
  'our',
  'my',
  'your',
  'these',
  'those',
  'there',
  'any',
  'some',
  'but',
  'about',
  'around',
  'across',
  // Analysts' chatter.
  'only',
  'big',
  'key',
  'opinion',
  'conversation',
  'conversations',
  'discussion',
  'combined',
  'together',
  'overall',
  'hashtag',
  'hashtags',
  'space',
  'mix',
]);

/** True for a word that holds a request together without naming anything in it. */
export function isScaffolding(word: string): boolean {
  return scaffolding.has(word.toLowerCase());
}
