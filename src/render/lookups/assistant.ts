/**
 * The words of the assistant pane (Slack's split view): prompts, status and the thread's title.
 * The suggested prompts a new thread offers, the status shown while the service works, and the
 * thread's title. Prompts are lookups the parser reads as they are, so choosing one gets an
 * answer, never a refusal.
 */
import type { LookupRequest } from '../../model/lookup.ts';
import { cleanText, formatDatabases, truncate, windowWords } from '../format.ts';

export interface AssistantPrompt {
  readonly title: string;
  readonly message: string;
}

export interface AssistantPrompts {
  readonly title: string;
  readonly prompts: readonly AssistantPrompt[];
}

/** Slack shows at most four suggested prompts. */
export const maxAssistantPrompts = 4;

/** Real lookups for a thread opened anywhere: the grammar's main features, one each. */
export const defaultAssistantPrompts: readonly AssistantPrompt[] = [
  { title: 'Who drove #hcsm last week?', message: 'who drove #hcsm last week?' },
  { title: 'Compare with the week before', message: '#hcsm last week vs previous period' },
  { title: 'Rank #bcsm by impressions', message: '#bcsm last month by impressions' },
  { title: 'What can I ask?', message: 'help' },
];

/** Slack's limits for a prompt's title and message are not documented; these keep them short. */
const maxPromptTitle = 75;

/**
 * Up to {@link maxAssistantPrompts} prompts: first the databases of the digests of the channel the
 * pane was opened from (each list once, in the order given), then the defaults.
 */
export function renderAssistantPrompts(
  digestDatabases: readonly (readonly string[])[] = [],
): AssistantPrompts {
  const seen = new Set<string>();
  const fromDigests: AssistantPrompt[] = [];
  for (const databases of digestDatabases) {
    const named = formatDatabases(databases);
    if (databases.length === 0 || seen.has(named)) continue;
    seen.add(named);
    fromDigests.push({
      title: truncate(cleanText(`Who drove ${named} last week?`), maxPromptTitle),
      message: `who drove ${named} last week?`,
    });
  }
  const prompts = [...fromDigests, ...defaultAssistantPrompts].slice(0, maxAssistantPrompts);
  return {
    title: fromDigests.length > 0 ? "This channel's digests, and more" : 'Try asking',
    prompts,
  };
}

/** The status line while the service works: Slack shows it after the app's name. */
export function renderAssistantStatus(request: LookupRequest): string {
  return truncate(`is looking up ${formatDatabases(request.databases)}…`, 100);
}

/** The thread's title once its first lookup is known: "#hcsm · Nov 14 – Nov 20, whole days, EST". */
export function renderAssistantTitle(request: LookupRequest, now?: Date): string {
  return truncate(
    `${formatDatabases(request.databases)} · ${windowWords(request, now)}`,
    maxPromptTitle,
  );
}
