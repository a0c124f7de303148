/**
 * Deterministic synthetic influencers for the sandbox. Every account is fictitious and generated
 * from a fixed seed; a request's numbers depend only on its predicates, window and clock, so the
 * same request always gets the same answer and a longer window gets proportionally more activity.
 */
import { LRUCache } from 'lru-cache';
import { defined } from '../model/defined.ts';
import type { CataloguePredicate, Topic } from './catalogue.ts';

/** Metrics the influencers endpoint reports and sorts by (the `metric` parameter). */
export const sandboxMetrics = [
  'hsg_score',
  'mentions',
  'retweets',
  'tweets',
  'impressions',
  'replies',
] as const;
export type SandboxMetric = (typeof sandboxMetrics)[number];

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

/** The wire format of one item of `influencers`, field names exactly as the service sends them. */
export interface WireInfluencer {
  readonly symplurrank: number;
  readonly mentions: number;
  readonly tweets: number;
  readonly retweets: number;
  readonly replies: number;
  readonly impressions: number;
  readonly urls: number;
  readonly user: {
    readonly id: string;
    readonly screen_name: string;
    readonly display_name?: string;
    readonly profile_image?: string;
    readonly hsg_score: number;
    readonly stakeholder_categories?: readonly StakeholderCategory[];
    readonly followers_count: number;
  };
}

/** 32-bit FNV-1a, then a murmur3 finaliser: a stable hash to [0, 1) for seeding numbers. */
export function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 0x1_0000_0000;
}

function sequence(seed: string): () => number {
  let counter = 0;
  return () => unitHash(`${seed}:${counter++}`);
}

const firstNames = (
  'Ana Priya Marcus Elena Tomas Grace Kwame Lina Oren Sofia Rafael Mei Jonah Amara Dmitri ' +
  'Hana Idris Clara Mateo Nadia Felix Yara Samuel Ingrid Tariq Leah Bruno Zainab Owen Rosa ' +
  'Kenji Maeve Andre Talia Victor Noor Caleb Irene Luca Esme'
).split(' ');
const lastNames = (
  'Reyes Kaur Whitfield Moreau Lindqvist Okafor Brennan Tanaka Halvorsen Castillo Mbeki Novak ' +
  'Ferreira Ashworth Quinlan Varga Delacroix Osei Petrov Yamada Calloway Sandoval Ibrahim ' +
  'Thornbury Kowalczyk Abernathy Lindgren Marchetti Oduya Pemberton Rasmussen Soto Vance ' +
  'Winslow'
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
    count: 90,
    categories: [stakeholderCategories.doctor],
    display: (f, l) => `Dr. ${f} ${l}`,
    handles: [(f, l) => `Dr${f}${l}`, (f, l) => `${f}${l}MD`, (f, l) => `Dr${l}${f.slice(0, 1)}`],
    topics: clinicalTopics,
    followers: [800, 120_000],
    tweetRatio: 0.15,
  },
  {
    count: 60,
    categories: [stakeholderCategories.hcp],
    display: (f, l) => `${f} ${l}, RN`,
    handles: [(f, l) => `${f}${l}RN`, (f) => `Nurse${f}`, (f, l) => `${f}${l.slice(0, 1)}PharmD`],
    topics: ['safety', 'education', 'general', 'oncology', 'leadership'],
    followers: [300, 40_000],
    tweetRatio: 0.2,
  },
  {
    count: 80,
    categories: [stakeholderCategories.patientAdvocate],
    display: (f, l) => `${f} ${l}`,
    handles: [(f) => `${f}Advocates`, (f, l) => `${f}${l}`, (f) => `${f}Survives`],
    topics: patientTopics,
    followers: [400, 60_000],
    tweetRatio: 0.35,
  },
  {
    count: 40,
    categories: [stakeholderCategories.caregiver],
    display: (f, l) => `${f} ${l}`,
    handles: [(f) => `${f}Cares`, (_f, l) => `CaringFor${l}`, (f, l) => `${f}_${l}`],
    topics: patientTopics,
    followers: [150, 15_000],
    tweetRatio: 0.3,
  },
  {
    count: 60,
    categories: [stakeholderCategories.researcher],
    display: (f, l) => `Prof. ${f} ${l}`,
    handles: [(f, l) => `${f}${l}PhD`, (_f, l) => `${l}Lab`, (f, l) => `Prof${l}${f.slice(0, 1)}`],
    topics: ['trials', 'oncology', 'rare', 'digital', 'education'],
    followers: [500, 50_000],
    tweetRatio: 0.12,
  },
  {
    count: 30,
    categories: [stakeholderCategories.journalist],
    display: (f, l) => `${f} ${l}`,
    handles: [(f, l) => `${f}${l}Health`, (_f, l) => `${l}Reports`, (f) => `${f}OnHealth`],
    topics: ['general', 'pharma', 'digital', 'trials'],
    followers: [2_000, 200_000],
    tweetRatio: 0.2,
  },
  {
    count: 25,
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
    accounts.push({
      screenName: unique(organisation.handle),
      displayName: organisation.name,
      profileImage: profileImageFor(organisation.handle),
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

const maxPoolSize = 220;
const pools = new Map<number, readonly { readonly account: Account; readonly share: number }[]>();

/** The accounts that take part in a predicate's conversation, with their share of its mentions. */
function poolOf(predicate: CataloguePredicate) {
  const cached = pools.get(predicate.id);
  if (cached !== undefined) return cached;
  const members = population
    .filter((account) => account.topics.some((topic) => predicate.topics.includes(topic)))
    .map((account) => ({
      account,
      order: unitHash(`pool:${predicate.id}:${account.screenName}`) / account.pull ** 1.5,
    }))
    .sort((a, b) => a.order - b.order)
    .slice(0, predicate.dailyMentions === 0 ? 0 : maxPoolSize);
  // A long-tailed (Zipf-like) split: a few accounts dominate every conversation.
  const weights = members.map((_, position) => 1 / (position + 6) ** 0.85);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const pool = members.map(({ account }, position) => ({
    account,
    share: (weights[position] ?? 0) / total,
  }));
  pools.set(predicate.id, pool);
  return pool;
}

export interface InfluencerQuery {
  readonly predicates: readonly CataloguePredicate[];
  readonly start: Date;
  readonly end: Date;
  /** Activity after this instant has not happened yet. */
  readonly now: Date;
  readonly metric: SandboxMetric;
  readonly limit: number;
}

interface Totals {
  account: Account;
  mentions: number;
  tweets: number;
  retweets: number;
  replies: number;
  impressions: number;
  urls: number;
}

const dayMs = 86_400_000;

/**
 * The top influencers of the union of `predicates` over [start, end), ranked by `metric`
 * (descending; ties broken by mentions, then screen name). Several predicates merge their pools:
 * an account active in two conversations gets the sum of both.
 */
export function topInfluencers(query: InfluencerQuery): WireInfluencer[] {
  const effectiveEnd = Math.min(query.end.getTime(), query.now.getTime());
  // Deterministic in these inputs: repeated questions (benchmarks, demos) cost a lookup, not a
  // fresh simulation, so the sandbox stays cheap beside the app it serves.
  const key = [
    query.predicates.map((predicate) => predicate.id).join(','),
    query.start.getTime(),
    query.end.getTime(),
    effectiveEnd,
    query.metric,
    query.limit,
  ].join('|');
  const known = answers.get(key);
  if (known !== undefined) return structuredClone(known);
  const answer = simulate(query, effectiveEnd);
  answers.set(key, answer);
  return structuredClone(answer);
}

const answers = new LRUCache<string, WireInfluencer[]>({ max: 500 });

function simulate(query: InfluencerQuery, effectiveEnd: number): WireInfluencer[] {
  const days = Math.max(0, effectiveEnd - query.start.getTime()) / dayMs;
  const window = `${query.start.getTime()}:${query.end.getTime()}`;
  const totals = new Map<string, Totals>();
  const seen = new Set<number>();

  for (const predicate of query.predicates) {
    if (seen.has(predicate.id)) continue;
    seen.add(predicate.id);
    if (days === 0) continue;
    for (const { account, share } of poolOf(predicate)) {
      const random = sequence(`${predicate.id}:${account.screenName}:${window}`);
      const expected = predicate.dailyMentions * share * days * (0.6 + 0.8 * random());
      const mentions = Math.floor(expected) + (random() < expected % 1 ? 1 : 0);
      const tweetsExpected = mentions * account.tweetRatio * (0.5 + random());
      const tweets = Math.floor(tweetsExpected) + (random() < tweetsExpected % 1 ? 1 : 0);
      if (mentions === 0 && tweets === 0) continue;
      const reach = Math.log10(10 + account.followers);
      const retweets = Math.round(tweets * reach * 0.6 * (0.4 + random()));
      const replies = Math.round((mentions + tweets) * 0.12 * (0.3 + random()));
      const impressions = Math.round(
        tweets * account.followers * 0.09 * (0.5 + random()) + mentions * 140 * (0.5 + random()),
      );
      const urls = Math.round(tweets * 0.3 * random());
      const total = totals.get(account.screenName);
      if (total === undefined) {
        totals.set(account.screenName, {
          account,
          mentions,
          tweets,
          retweets,
          replies,
          impressions,
          urls,
        });
      } else {
        total.mentions += mentions;
        total.tweets += tweets;
        total.retweets += retweets;
        total.replies += replies;
        total.impressions += impressions;
        total.urls += urls;
      }
    }
  }

  const value = (total: Totals): number =>
    query.metric === 'hsg_score' ? total.account.hsgScore : total[query.metric];
  return [...totals.values()]
    .sort(
      (a, b) =>
        value(b) - value(a) ||
        b.mentions - a.mentions ||
        (a.account.screenName < b.account.screenName ? -1 : 1),
    )
    .slice(0, query.limit)
    .map((total, index) => toWire(total, index + 1));
}

function toWire(total: Totals, rank: number): WireInfluencer {
  const { account } = total;
  return {
    symplurrank: rank,
    mentions: total.mentions,
    tweets: total.tweets,
    retweets: total.retweets,
    replies: total.replies,
    impressions: total.impressions,
    urls: total.urls,
    user: {
      id: String(1_000_000_000 + Math.floor(unitHash(`id:${account.screenName}`) * 8_000_000_000)),
      screen_name: account.screenName,
      ...defined({ display_name: account.displayName }),
      ...defined({ profile_image: account.profileImage }),
      hsg_score: account.hsgScore,
      ...defined({ stakeholder_categories: account.categories }),
      followers_count: account.followers,
    },
  };
}
