/**
 * The sandbox's synthetic accounts: people and organisations around the healthcare conversations
 * of the catalogue. Every account is fictitious and generated from a fixed seed, so the population
 * is the same on every run.
 */
import type { Topic } from './catalogue.ts';
import { sequence, unitHash } from './seeded.ts';

export interface StakeholderCategory {
  readonly id: number;
  readonly name: string;
}

/** The service's stakeholder categories (ids are the sandbox's own). */
export const stakeholderCategories = {
  doctor: { id: 3, name: 'Doctor' },
  hcp: { id: 4, name: 'HCP' },
  patientAdvocate: { id: 5, name: 'Patient Advocate' },
  caregiver: { id: 6, name: 'Caregiver' },
  researcher: { id: 7, name: 'Researcher/Academic' },
  journalist: { id: 8, name: 'Journalist/Media' },
  orgProvider: { id: 11, name: 'Org. Provider' },
  orgPharma: { id: 12, name: 'Org. Pharma' },
  orgAdvocacy: { id: 13, name: 'Org. Advocacy' },
  orgMedia: { id: 14, name: 'Org. Media' },
  orgResearch: { id: 15, name: 'Org. Research/Academic' },
} as const satisfies Record<string, StakeholderCategory>;

/** One account of the synthetic population; optional fields are missing on purpose for some. */
export interface Account {
  /** The platform's numeric user id, as a string. */
  readonly id: string;
  readonly screenName: string;
  readonly displayName?: string;
  readonly profileImage?: string;
  readonly hsgScore: number;
  /** undefined: the field is absent on the wire; empty: sent as `[]`. */
  readonly categories?: readonly StakeholderCategory[];
  readonly followers: number;
  readonly topics: readonly Topic[];
  /** Relative share of a conversation this account tends to draw. */
  readonly pull: number;
  /** Own tweets per mention received. */
  readonly tweetRatio: number;
}

const firstNames = (
  'Ana Priya Marcus Elena Tomas Grace Kwame Lina Oren Sofia Rafael Mei Jonah Amara Dmitri ' +
  'Hana Idris Clara Mateo Nadia Felix Yara Samuel Ingrid Tariq Leah Bruno Zainab Owen Rosa ' +
  'Kenji Maeve Andre Talia Victor Noor Caleb Irene Luca Esme Ada Bashir Carmen Declan Eun ' +
  'Farah Gideon Hugo Imani Joaquin Keira Lars Malik Nia Olga Pablo Quinn Ravi Saoirse Theo ' +
  'Uma Vera Wes Ximena Yusuf Zora Aiko Beatriz Cyrus Dalia Emeka Freya Gus Hiro Iris Jude'
).split(' ');
const lastNames = (
  'Reyes Kaur Whitfield Moreau Lindqvist Okafor Brennan Tanaka Halvorsen Castillo Mbeki Novak ' +
  'Ferreira Ashworth Quinlan Varga Delacroix Osei Petrov Yamada Calloway Sandoval Ibrahim ' +
  'Thornbury Kowalczyk Abernathy Lindgren Marchetti Oduya Pemberton Rasmussen Soto Vance ' +
  'Winslow Achebe Bergstrom Chandra Dunmore Esposito Fairweather Gallagher Haddad Iverson ' +
  'Jovanovic Kimura Larkin Mendoza Nakamura Oyelaran Pascal Quartey Rinaldi Sorensen Takahashi ' +
  'Underwood Valdez Wexler Yilmaz Zielinski Amsel Bianchi Costa Drummond Eklund Fitzroy Grant'
).split(' ');

const clinicalTopics: readonly Topic[] = [
  'oncology',
  'breast',
  'lung',
  'myeloma',
  'education',
  'digital',
  'safety',
  'rare',
  'trials',
];
const patientTopics: readonly Topic[] = ['breast', 'lung', 'myeloma', 'rare', 'safety', 'general'];

interface PersonTemplate {
  readonly count: number;
  readonly categories: readonly StakeholderCategory[];
  readonly display: (first: string, last: string) => string;
  readonly handles: readonly ((first: string, last: string) => string)[];
  readonly topics: readonly Topic[];
  readonly followers: readonly [number, number];
  readonly tweetRatio: number;
}

const people: readonly PersonTemplate[] = [
  {
    count: 560,
    categories: [stakeholderCategories.doctor],
    display: (f, l) => `Dr. ${f} ${l}`,
    handles: [(f, l) => `Dr${f}${l}`, (f, l) => `${f}${l}MD`, (f, l) => `Dr${l}${f.slice(0, 1)}`],
    topics: clinicalTopics,
    followers: [800, 120_000],
    tweetRatio: 0.15,
  },
  {
    count: 380,
    categories: [stakeholderCategories.hcp],
    display: (f, l) => `${f} ${l}, RN`,
    handles: [(f, l) => `${f}${l}RN`, (f) => `Nurse${f}`, (f, l) => `${f}${l.slice(0, 1)}PharmD`],
    topics: ['safety', 'education', 'general', 'oncology', 'leadership'],
    followers: [300, 40_000],
    tweetRatio: 0.2,
  },
  {
    count: 500,
    categories: [stakeholderCategories.patientAdvocate],
    display: (f, l) => `${f} ${l}`,
    handles: [(f) => `${f}Advocates`, (f, l) => `${f}${l}`, (f) => `${f}Survives`],
    topics: patientTopics,
    followers: [400, 60_000],
    tweetRatio: 0.35,
  },
  {
    count: 240,
    categories: [stakeholderCategories.caregiver],
    display: (f, l) => `${f} ${l}`,
    handles: [(f) => `${f}Cares`, (_f, l) => `CaringFor${l}`, (f, l) => `${f}_${l}`],
    topics: patientTopics,
    followers: [150, 15_000],
    tweetRatio: 0.3,
  },
  {
    count: 360,
    categories: [stakeholderCategories.researcher],
    display: (f, l) => `Prof. ${f} ${l}`,
    handles: [(f, l) => `${f}${l}PhD`, (_f, l) => `${l}Lab`, (f, l) => `Prof${l}${f.slice(0, 1)}`],
    topics: ['trials', 'oncology', 'rare', 'digital', 'education'],
    followers: [500, 50_000],
    tweetRatio: 0.12,
  },
  {
    count: 160,
    categories: [stakeholderCategories.journalist],
    display: (f, l) => `${f} ${l}`,
    handles: [(f, l) => `${f}${l}Health`, (_f, l) => `${l}Reports`, (f) => `${f}OnHealth`],
    topics: ['general', 'pharma', 'digital', 'trials'],
    followers: [2_000, 200_000],
    tweetRatio: 0.2,
  },
  {
    count: 150,
    categories: [stakeholderCategories.doctor, stakeholderCategories.researcher],
    display: (f, l) => `Dr. ${f} ${l}, PhD`,
    handles: [(f, l) => `Dr${f}${l}Lab`, (f, l) => `${l}${f}MDPhD`],
    topics: ['oncology', 'trials', 'rare', 'lung', 'breast', 'myeloma'],
    followers: [1_500, 90_000],
    tweetRatio: 0.12,
  },
];

interface Organisation {
  readonly name: string;
  readonly handle: string;
  readonly category: StakeholderCategory;
  readonly topics: readonly Topic[];
}

const organisations: readonly Organisation[] = [
  {
    name: 'Lakeside Medical Center',
    handle: 'LakesideMed',
    category: stakeholderCategories.orgProvider,
    topics: ['general', 'safety', 'leadership'],
  },
  {
    name: 'Cedar Point Cancer Institute',
    handle: 'CedarPointCancer',
    category: stakeholderCategories.orgProvider,
    topics: ['oncology', 'breast', 'lung', 'myeloma', 'trials'],
  },
  {
    name: 'Harbor Valley Health',
    handle: 'HarborValleyHealth',
    category: stakeholderCategories.orgProvider,
    topics: ['general', 'digital', 'leadership'],
  },
  {
    name: "St. Brigid Children's Hospital",
    handle: 'StBrigidKids',
    category: stakeholderCategories.orgProvider,
    topics: ['rare', 'safety'],
  },
  {
    name: 'Meridian Therapeutics',
    handle: 'MeridianTx',
    category: stakeholderCategories.orgPharma,
    topics: ['pharma', 'oncology', 'trials'],
  },
  {
    name: 'Altavista Pharma',
    handle: 'AltavistaPharma',
    category: stakeholderCategories.orgPharma,
    topics: ['pharma', 'rare'],
  },
  {
    name: 'Bluefin Biosciences',
    handle: 'BluefinBio',
    category: stakeholderCategories.orgPharma,
    topics: ['pharma', 'trials', 'lung'],
  },
  {
    name: 'Northwind Oncology',
    handle: 'NorthwindOnc',
    category: stakeholderCategories.orgPharma,
    topics: ['oncology', 'myeloma', 'pharma'],
  },
  {
    name: 'Open Oncology Review',
    handle: 'OpenOncReview',
    category: stakeholderCategories.orgMedia,
    topics: ['oncology', 'trials', 'breast'],
  },
  {
    name: 'Clinical Notes Quarterly',
    handle: 'ClinNotesQ',
    category: stakeholderCategories.orgMedia,
    topics: ['education', 'general'],
  },
  {
    name: 'Digital Care Digest',
    handle: 'DigitalCareDigest',
    category: stakeholderCategories.orgMedia,
    topics: ['digital', 'leadership'],
  },
  {
    name: 'Pink Thread Alliance',
    handle: 'PinkThreadAlliance',
    category: stakeholderCategories.orgAdvocacy,
    topics: ['breast'],
  },
  {
    name: 'Lung Hope Network',
    handle: 'LungHopeNet',
    category: stakeholderCategories.orgAdvocacy,
    topics: ['lung'],
  },
  {
    name: 'Rare Together Foundation',
    handle: 'RareTogether',
    category: stakeholderCategories.orgAdvocacy,
    topics: ['rare'],
  },
  {
    name: 'Safe Care Coalition',
    handle: 'SafeCareCoalition',
    category: stakeholderCategories.orgAdvocacy,
    topics: ['safety'],
  },
  {
    name: 'Myeloma Friends Circle',
    handle: 'MyelomaFriends',
    category: stakeholderCategories.orgAdvocacy,
    topics: ['myeloma'],
  },
  {
    name: 'Westbrook University School of Medicine',
    handle: 'WestbrookMed',
    category: stakeholderCategories.orgResearch,
    topics: ['education', 'trials', 'general'],
  },
  {
    name: 'Institute for Health Informatics at Dunmore',
    handle: 'DunmoreHealthIT',
    category: stakeholderCategories.orgResearch,
    topics: ['digital', 'education'],
  },
];

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}

function profileImageFor(seed: string): string {
  return `https://api.dicebear.com/9.x/initials/png?seed=${encodeURIComponent(seed)}`;
}

function userIdOf(screenName: string): string {
  return String(1_000_000_000 + Math.floor(unitHash(`id:${screenName}`) * 8_000_000_000));
}

function logUniform(random: () => number, [low, high]: readonly [number, number]): number {
  return Math.round(Math.exp(Math.log(low) + random() * (Math.log(high) - Math.log(low))));
}

function buildPopulation(): Account[] {
  const random = sequence('population-v1');
  const accounts: Account[] = [];
  const taken = new Set<string>();
  // Handles follow the platform's 15-character limit; a short template is preferred to truncation.
  const unique = (...handles: string[]): string => {
    const fitting = handles.find(
      (handle) => handle.length <= 15 && !taken.has(handle.toLowerCase()),
    );
    const handle =
      fitting ?? handles.find((candidate) => candidate.length <= 15) ?? handles[0] ?? '';
    let candidate = handle.slice(0, 15);
    for (let suffix = 2; taken.has(candidate.toLowerCase()); suffix++) {
      candidate = `${handle.slice(0, 15 - String(suffix).length)}${suffix}`;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  };

  for (const template of people) {
    for (let index = 0; index < template.count; index++) {
      const first = pick(firstNames, random);
      const last = pick(lastNames, random);
      const offset = Math.floor(random() * template.handles.length);
      const screenName = unique(
        ...template.handles.map((_, position) => {
          const handle = template.handles[(position + offset) % template.handles.length];
          return handle === undefined ? `${first}${last}` : handle(first, last);
        }),
      );
      const displayName = template.display(first, last);
      const topics = [pick(template.topics, random), pick(template.topics, random)];
      if (random() < 0.3) topics.push('general');
      const followers = logUniform(random, template.followers);
      // Realism on purpose: some accounts lack a display name, an image or categories.
      const shape = random();
      const account: Account = {
        id: userIdOf(screenName),
        screenName,
        ...(shape < 0.1 ? {} : { displayName }),
        ...(shape >= 0.1 && shape < 0.22 ? {} : { profileImage: profileImageFor(screenName) }),
        hsgScore:
          Math.round((20 + 75 * Math.sqrt(random()) * Math.min(1, followers / 60_000 + 0.4)) * 10) /
          10,
        ...(shape >= 0.22 && shape < 0.3
          ? {}
          : { categories: shape >= 0.3 && shape < 0.36 ? [] : template.categories }),
        followers,
        topics: [...new Set(topics)],
        pull: (0.4 + random() * 1.6) * (0.6 + Math.log10(followers) / 6),
        tweetRatio: template.tweetRatio * (0.6 + random() * 0.8),
      };
      accounts.push(account);
    }
  }
  for (const organisation of organisations) {
    const followers = logUniform(random, [5_000, 400_000]);
    const screenName = unique(organisation.handle);
    accounts.push({
      id: userIdOf(screenName),
      screenName,
      displayName: organisation.name,
      profileImage: profileImageFor(screenName),
      hsgScore: Math.round((55 + random() * 40) * 10) / 10,
      categories: [organisation.category],
      followers,
      topics: organisation.topics,
      pull: (1 + random()) * (0.6 + Math.log10(followers) / 6),
      tweetRatio: 0.5 + random() * 0.5,
    });
  }
  return accounts;
}

/** The whole synthetic population, in a stable order. */
export const population: readonly Account[] = buildPopulation();
