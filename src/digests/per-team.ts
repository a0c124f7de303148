/**
 * What the engine asks for by workspace: each post, DM and canvas goes out through the access of
 * the workspace it belongs to. Kept apart from the outlets themselves so every engine file can name
 * it without an import cycle.
 */
import type { SlackMessage } from '../model/message.ts';

/** Something asked for by workspace (a poster, a canvas writer, a way to name people). */
export interface PerTeam<T> {
  forTeam(teamId: string): T;
}

/** The same answer for every workspace: one bot token, the console, a test's recorder. */
export function everyTeam<T>(value: T): PerTeam<T> {
  return { forTeam: () => value };
}

/** Picks one part out of each workspace's outlet. */
export function partOf<T, K extends keyof T>(all: PerTeam<T>, key: K): PerTeam<T[K]> {
  return { forTeam: (teamId) => all.forTeam(teamId)[key] };
}

/** A DM to one person of a workspace (a digest's or a conference's creator). */
export type NotifyCreator = (
  teamId: string,
  userId: string,
  message: SlackMessage,
) => Promise<void>;
