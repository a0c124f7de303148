/**
 * The command people type and the verbs of its digest commands: the grammars read them, the
 * renderer names them in help and hints, and the Slack surface registers the command, so each is
 * spelled once.
 */

/** The slash command as declared in manifest.yml. */
export const slashCommand = '/influencers';

export type DigestAction = 'pause' | 'resume' | 'remove' | 'run';

/** An id in examples: Crockford base32, as the store makes them. */
export const exampleDigestId = '7K3M9Q';

/**
 * What a word after `digest` asks for: an action on one digest, a change to one, its history, the
 * list, or a new digest.
 */
export type DigestVerb = DigestAction | 'edit' | 'list' | 'create' | 'history';

/**
 * Every verb of the digest commands and what it does: the digest grammar reads them after
 * `digest`, and the lookup flow and its help hint recognise them typed without it, so a word
 * works in one place exactly when it is hinted at in the other.
 */
export const digestVerbs: ReadonlyMap<string, DigestVerb> = new Map<string, DigestVerb>([
  ['pause', 'pause'],
  ['stop', 'pause'],
  ['disable', 'pause'],
  ['resume', 'resume'],
  ['unpause', 'resume'],
  ['start', 'resume'],
  ['enable', 'resume'],
  ['remove', 'remove'],
  ['delete', 'remove'],
  ['cancel', 'remove'],
  ['unsubscribe', 'remove'],
  ['run', 'run'],
  ['edit', 'edit'],
  ['send', 'run'],
  ['post', 'run'],
  ['list', 'list'],
  ['show', 'list'],
  ['status', 'list'],
  ['settings', 'list'],
  ['history', 'history'],
  ['runs', 'history'],
  ['create', 'create'],
  ['schedule', 'create'],
  ['subscribe', 'create'],
]);
