/**
 * The analytics service's stakeholder categories (Symplur's Healthcare Stakeholder Segmentation),
 * by the names the service sends in `user.stakeholder_categories[].name`: names are the contract,
 * the ids are the service's own. The service cannot filter by them, so a filter (`doctors`,
 * `excluding orgs`) is applied here to the top of its ranking.
 */
export const stakeholderCategoryNames = [
  'Doctor',
  'HCP',
  'Patient Advocate',
  'Caregiver',
  'Researcher/Academic',
  'Journalist/Media',
  'Org. Provider',
  'Org. Pharma',
  'Org. Advocacy',
  'Org. Media',
  'Org. Research/Academic',
] as const;

export type StakeholderCategoryName = (typeof stakeholderCategoryNames)[number];

/** Who to keep: anyone in one of `include` (everyone when empty), and no one in `exclude`. */
export interface StakeholderFilter {
  readonly include: readonly StakeholderCategoryName[];
  readonly exclude: readonly StakeholderCategoryName[];
}

/** True when a person with these category names passes the filter. */
export function passesStakeholders(
  categories: readonly string[],
  filter: StakeholderFilter,
): boolean {
  if (categories.some((name) => (filter.exclude as readonly string[]).includes(name))) {
    return false;
  }
  return (
    filter.include.length === 0 ||
    categories.some((name) => (filter.include as readonly string[]).includes(name))
  );
}
