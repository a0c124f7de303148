import { describe, expect, it } from 'vitest';
import {
  compileAccess,
  demoCatalogue,
  mayRead,
  predicatesOf,
  resolveDatabase,
} from '../../src/sandbox/catalogue.ts';

describe('demoCatalogue', () => {
  it('lists the healthcare hashtags, phrases and groups the demo can ask for', () => {
    expect(demoCatalogue.predicates.map((predicate) => predicate.name)).toEqual([
      '#hcsm',
      '#bcsm',
      '#lcsm',
      '#mcsm',
      '#pharma',
      '#meded',
      '#digitalhealth',
      '#patientsafety',
      '#raredisease',
      '#oncology',
      '#hcldr',
      '#quiet',
      '#ASCO26',
      '#ASCO2026',
      '#ESMO26',
      '#AHA26',
      '#ASH26',
      'breast cancer',
      'patient safety',
      'rare disease',
      'clinical trials',
      'health equity',
    ]);
    expect(demoCatalogue.groups.map((group) => group.name)).toEqual([
      'Oncology',
      'Patient Advocates',
      'Rare Diseases',
      'Digital Health',
    ]);
  });

  it('has unique ids and groups made only of known predicates', () => {
    const ids = demoCatalogue.predicates.map((predicate) => predicate.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const group of demoCatalogue.groups) {
      expect(group.predicateIds.length).toBeGreaterThan(0);
      for (const id of group.predicateIds) expect(ids).toContain(id);
    }
  });

  it('keeps #quiet without any activity', () => {
    expect(
      demoCatalogue.predicates.find((predicate) => predicate.name === '#quiet')?.dailyMentions,
    ).toBe(0);
  });
});

describe('resolveDatabase', () => {
  it.each([
    ['#hcsm', 'predicate', 101],
    ['#HCSM', 'predicate', 101],
    ['101', 'predicate', 101],
    ['4711', 'predicate', 4711],
    ['Health Equity', 'predicate', 4711],
    ['Breast Cancer', 'predicate', 201],
    ['group:11', 'group', 11],
    ['group:oncology', 'group', 11],
    ['GROUP:Rare Diseases', 'group', 13],
  ])('resolves %j to the %s with id %i', (item, kind, id) => {
    const resolved = resolveDatabase(item, demoCatalogue);
    expect(resolved?.kind).toBe(kind);
    expect(resolved?.kind === 'group' ? resolved.group.id : resolved?.predicate.id).toBe(id);
  });

  it.each(['hcsm', 'breast+cancer', '0101', '101 ', 'group:', 'group:101', 'Oncology', '#nope'])(
    'finds nothing for %j',
    (item) => {
      expect(resolveDatabase(item, demoCatalogue)).toBeUndefined();
    },
  );

  it('expands a group to its predicates', () => {
    const group = resolveDatabase('group:Rare Diseases', demoCatalogue);
    expect(group && predicatesOf(group, demoCatalogue).map((predicate) => predicate.name)).toEqual([
      '#raredisease',
      'rare disease',
    ]);
  });
});

describe('compileAccess', () => {
  it('grants listed predicates, listed groups and the predicates of listed groups', () => {
    const { policy, unknown } = compileAccess(['#hcsm', 'group:13'], demoCatalogue);
    expect(unknown).toEqual([]);
    const read = (item: string) => {
      const resolved = resolveDatabase(item, demoCatalogue);
      if (resolved === undefined) throw new Error(`no ${item}`);
      return mayRead(resolved, policy);
    };
    expect(['#hcsm', 'group:13', '#raredisease', 'rare disease'].map(read)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['#bcsm', 'group:11', 'group:14'].map(read)).toEqual([false, false, false]);
  });

  it('reports entries that are not in the catalogue', () => {
    expect(compileAccess(['#hcsm', '#nope', 'group:99'], demoCatalogue).unknown).toEqual([
      '#nope',
      'group:99',
    ]);
  });

  it('lets a client without a policy read everything', () => {
    const group = resolveDatabase('group:11', demoCatalogue);
    expect(group && mayRead(group, undefined)).toBe(true);
  });
});
