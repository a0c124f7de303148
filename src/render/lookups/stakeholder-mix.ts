/**
 * Who the people of a ranking are, by stakeholder category, counted by people.
 * "Doctors 5 · Patient advocates 2 · Researchers 2 · Pharma orgs 1". A person in two categories
 * counts in each, and the line says so then, since its counts no longer add up to the people
 * ranked.
 */
import { neutralizeMrkdwn } from '../format.ts';
import type { RankedRow } from './ranking.ts';

/** Plural words for the service's category names; a name not listed is shown as sent. */
const plurals: ReadonlyMap<string, readonly [one: string, many: string]> = new Map(
  Object.entries({
    Doctor: ['Doctor', 'Doctors'],
    HCP: ['HCP', 'HCPs'],
    'Patient Advocate': ['Patient advocate', 'Patient advocates'],
    Caregiver: ['Caregiver', 'Caregivers'],
    'Researcher/Academic': ['Researcher', 'Researchers'],
    'Journalist/Media': ['Journalist', 'Journalists'],
    'Org. Provider': ['Provider org', 'Provider orgs'],
    'Org. Pharma': ['Pharma org', 'Pharma orgs'],
    'Org. Advocacy': ['Advocacy org', 'Advocacy orgs'],
    'Org. Media': ['Media org', 'Media orgs'],
    'Org. Research/Academic': ['Research org', 'Research orgs'],
  } as const),
);

export interface StakeholderMix {
  /** Category name -> how many of the people are in it, most first (ties in ranking order). */
  readonly counts: readonly (readonly [name: string, people: number])[];
  /** People in no category. */
  readonly uncategorized: number;
  /** True when someone is in two categories or more: the counts add up to more than the people. */
  readonly overlapping: boolean;
  readonly people: number;
}

export function stakeholderMix(rows: readonly RankedRow[]): StakeholderMix {
  const counts = new Map<string, number>();
  let uncategorized = 0;
  let overlapping = false;
  for (const row of rows) {
    const names = new Set(row.categories);
    if (names.size === 0) uncategorized += 1;
    if (names.size > 1) overlapping = true;
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  // Stable: equal counts keep the order they were first met in, the ranking's.
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  return { counts: sorted, uncategorized, overlapping, people: rows.length };
}

/** "Doctors" for 2, "Doctor" for 1; an unknown category as the service names it. */
export function categoryWords(name: string, count: number): string {
  const words = plurals.get(name);
  if (words === undefined) return name;
  return count === 1 ? words[0] : words[1];
}

/**
 * The mix on one line, plain text (the caller escapes it for mrkdwn); empty when nobody in the
 * ranking has a category, since "5 without a category" alone tells nothing.
 */
export function mixLine(mix: StakeholderMix): string {
  if (mix.counts.length === 0) return '';
  const parts = mix.counts.map(([name, count]) => `${categoryWords(name, count)} ${count}`);
  if (mix.uncategorized > 0) parts.push(`no category ${mix.uncategorized}`);
  const note = mix.overlapping ? ' (someone in two categories counts in each)' : '';
  return `Who: ${parts.join(' · ')}${note}`;
}

/**
 * {@link mixLine} as mrkdwn, the one way a message shows it: category names come from the service,
 * so one named like markup or a URL reads as text, never as a link.
 */
export function mixMrkdwn(rows: readonly RankedRow[]): string {
  return neutralizeMrkdwn(mixLine(stakeholderMix(rows)));
}
