/**
 * The sandbox's catalogue of "databases": the predicates (hashtags and phrases) and groups the demo
 * client can ask for. Exported so documentation and tests can list exactly what exists.
 *
 * `dailyMentions` is the typical number of mentions per day across a predicate's whole pool of
 * accounts; `#quiet` has none so an empty answer can be demonstrated.
 */

export type Topic =
  | 'general'
  | 'oncology'
  | 'breast'
  | 'lung'
  | 'myeloma'
  | 'pharma'
  | 'education'
  | 'digital'
  | 'safety'
  | 'rare'
  | 'leadership'
  | 'trials';

export interface CataloguePredicate {
  readonly id: number;
  /** Hashtags keep their `#`; names match case-insensitively. */
  readonly name: string;
  readonly kind: 'hashtag' | 'phrase';
  readonly dailyMentions: number;
  /** Accounts interested in these topics form the predicate's pool of influencers. */
  readonly topics: readonly Topic[];
}

export interface CatalogueGroup {
  readonly id: number;
  readonly name: string;
  readonly predicateIds: readonly number[];
}

export interface Catalogue {
  readonly predicates: readonly CataloguePredicate[];
  readonly groups: readonly CatalogueGroup[];
}

export const demoCatalogue: Catalogue = {
  predicates: [
    {
      id: 101,
      name: '#hcsm',
      kind: 'hashtag',
      dailyMentions: 2400,
      topics: ['general', 'digital', 'leadership'],
    },
    {
      id: 102,
      name: '#bcsm',
      kind: 'hashtag',
      dailyMentions: 1500,
      topics: ['breast', 'oncology'],
    },
    { id: 103, name: '#lcsm', kind: 'hashtag', dailyMentions: 700, topics: ['lung', 'oncology'] },
    {
      id: 104,
      name: '#mcsm',
      kind: 'hashtag',
      dailyMentions: 450,
      topics: ['myeloma', 'oncology'],
    },
    {
      id: 105,
      name: '#pharma',
      kind: 'hashtag',
      dailyMentions: 1800,
      topics: ['pharma', 'trials'],
    },
    { id: 106, name: '#meded', kind: 'hashtag', dailyMentions: 1300, topics: ['education'] },
    { id: 107, name: '#digitalhealth', kind: 'hashtag', dailyMentions: 3100, topics: ['digital'] },
    { id: 108, name: '#patientsafety', kind: 'hashtag', dailyMentions: 650, topics: ['safety'] },
    { id: 109, name: '#raredisease', kind: 'hashtag', dailyMentions: 900, topics: ['rare'] },
    {
      id: 110,
      name: '#oncology',
      kind: 'hashtag',
      dailyMentions: 2000,
      topics: ['oncology', 'trials'],
    },
    {
      id: 111,
      name: '#hcldr',
      kind: 'hashtag',
      dailyMentions: 380,
      topics: ['leadership', 'digital'],
    },
    { id: 112, name: '#quiet', kind: 'hashtag', dailyMentions: 0, topics: [] },
    // Congress hashtags, for the conference examples of the docs and the help.
    {
      id: 113,
      name: '#ASCO26',
      kind: 'hashtag',
      dailyMentions: 1600,
      topics: ['oncology', 'trials'],
    },
    { id: 114, name: '#ASCO2026', kind: 'hashtag', dailyMentions: 400, topics: ['oncology'] },
    {
      id: 115,
      name: '#ESMO26',
      kind: 'hashtag',
      dailyMentions: 1200,
      topics: ['oncology', 'trials'],
    },
    { id: 116, name: '#AHA26', kind: 'hashtag', dailyMentions: 900, topics: ['general', 'trials'] },
    { id: 117, name: '#ASH26', kind: 'hashtag', dailyMentions: 800, topics: ['myeloma', 'trials'] },
    {
      id: 201,
      name: 'breast cancer',
      kind: 'phrase',
      dailyMentions: 5200,
      topics: ['breast', 'oncology', 'general'],
    },
    {
      id: 202,
      name: 'patient safety',
      kind: 'phrase',
      dailyMentions: 1100,
      topics: ['safety', 'general'],
    },
    {
      id: 203,
      name: 'rare disease',
      kind: 'phrase',
      dailyMentions: 1400,
      topics: ['rare', 'general'],
    },
    {
      id: 204,
      name: 'clinical trials',
      kind: 'phrase',
      dailyMentions: 1700,
      topics: ['trials', 'pharma', 'oncology'],
    },
    // The id the README and the help text use as their numeric example.
    {
      id: 4711,
      name: 'health equity',
      kind: 'phrase',
      dailyMentions: 950,
      topics: ['general', 'leadership', 'safety'],
    },
  ],
  groups: [
    { id: 11, name: 'Oncology', predicateIds: [102, 103, 104, 110, 201] },
    { id: 12, name: 'Patient Advocates', predicateIds: [102, 103, 108, 109, 202] },
    { id: 13, name: 'Rare Diseases', predicateIds: [109, 203] },
    { id: 14, name: 'Digital Health', predicateIds: [101, 107, 111] },
  ],
};

export type ResolvedDatabase =
  | { readonly kind: 'predicate'; readonly predicate: CataloguePredicate }
  | { readonly kind: 'group'; readonly group: CatalogueGroup };

const groupPrefix = 'group:';

/**
 * Resolves one `databases` item the way the service does: a numeric id or a case-insensitive name
 * for predicates, `group:<id>` or `group:<name>` for groups. Returns undefined when nothing matches.
 */
export function resolveDatabase(item: string, catalogue: Catalogue): ResolvedDatabase | undefined {
  if (item.toLowerCase().startsWith(groupPrefix)) {
    const reference = item.slice(groupPrefix.length);
    const group = /^\d+$/.test(reference)
      ? catalogue.groups.find((candidate) => String(candidate.id) === reference)
      : catalogue.groups.find((candidate) => sameName(candidate.name, reference));
    return group === undefined ? undefined : { kind: 'group', group };
  }
  const predicate = /^\d+$/.test(item)
    ? catalogue.predicates.find((candidate) => String(candidate.id) === item)
    : catalogue.predicates.find((candidate) => sameName(candidate.name, item));
  return predicate === undefined ? undefined : { kind: 'predicate', predicate };
}

/** The predicates a resolved item stands for: itself, or every member of the group. */
export function predicatesOf(
  resolved: ResolvedDatabase,
  catalogue: Catalogue,
): CataloguePredicate[] {
  if (resolved.kind === 'predicate') return [resolved.predicate];
  return resolved.group.predicateIds.flatMap((id) => {
    const predicate = catalogue.predicates.find((candidate) => candidate.id === id);
    return predicate === undefined ? [] : [predicate];
  });
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** What one client may read, compiled from its `access` list; undefined means everything. */
export interface AccessPolicy {
  readonly predicateIds: ReadonlySet<number>;
  readonly groupIds: ReadonlySet<number>;
}

/**
 * Compiles a client's access list (items written as in a request: `#hcsm`, `101`, `group:Oncology`).
 * Access to a group grants its predicates too. Returns the entries that match nothing in `unknown`
 * so a misconfigured sandbox fails at start rather than answering 404 to a request that looks right.
 */
export function compileAccess(
  access: readonly string[],
  catalogue: Catalogue,
): { readonly policy: AccessPolicy; readonly unknown: readonly string[] } {
  const predicateIds = new Set<number>();
  const groupIds = new Set<number>();
  const unknown: string[] = [];
  for (const entry of access) {
    const resolved = resolveDatabase(entry.trim(), catalogue);
    if (resolved === undefined) {
      unknown.push(entry);
      continue;
    }
    if (resolved.kind === 'group') groupIds.add(resolved.group.id);
    for (const predicate of predicatesOf(resolved, catalogue)) predicateIds.add(predicate.id);
  }
  return { policy: { predicateIds, groupIds }, unknown };
}

/** Whether a policy lets its client read a resolved item; no policy means the whole catalogue. */
export function mayRead(resolved: ResolvedDatabase, policy: AccessPolicy | undefined): boolean {
  if (policy === undefined) return true;
  return resolved.kind === 'group'
    ? policy.groupIds.has(resolved.group.id)
    : policy.predicateIds.has(resolved.predicate.id);
}
