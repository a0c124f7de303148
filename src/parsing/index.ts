/**
 * Free-text command parsing: pure functions from what a person typed in Slack to a validated
 * request. Everything a second command grammar needs is exported from here.
 */

export { slashCommand } from '../model/commands.ts';
export type { LookupRequest, ParseContext, ParseDefaults } from '../model/lookup.ts';
export { resolveZone } from '../time/zone-names.ts';
export { withPreviousPeriod } from './compare.ts';
export {
  type DatabaseItem,
  type DatabaseToken,
  readDatabaseToken,
  uniqueDatabases,
} from './databases.ts';
export { followUpRest, parseFollowUp } from './follow-up.ts';
export {
  type ClauseHit,
  type Clauses,
  type CommandScan,
  type Match,
  type Matcher,
  scanCommand,
} from './grammar.ts';
export { type LeadingWord, leadingWord } from './leading-word.ts';
export { lookupDefaults, parseLookup } from './lookup.ts';
export { parseErrors } from './messages/lookup.ts';
export { exampleCommand, quote } from './messages/wording.ts';
export {
  lookupTopRange,
  matchTopOption,
  matchZoneOption,
  readZoneName,
  topRange,
} from './options.ts';
export { greetingWords, readsAsQuestion } from './question.ts';
export { normaliseSlackText } from './slack-text.ts';
export {
  firstWord,
  type Subcommand,
  subcommandNamed,
  subcommandOf,
  subcommandWords,
} from './subcommands.ts';
export * from './time/index.ts';
export { fragmentOf, type Token, type TokenKind, tokenize, tokensText } from './tokens.ts';
