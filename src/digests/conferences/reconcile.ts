/**
 * Posts left unconfirmed (a record `posting`, no ts) settled from what the channel holds: an
 * instance killed between a post's record and Slack's answer leaves the next one to look.
 */
import type { Conference } from '../../model/conference.ts';
import type { ConferencePost } from '../../store/conferences.ts';
import { dayNumber, eventDays } from './days.ts';
import { asRunError, SkipToNextRefreshError } from './outcomes.ts';
import type { FoundPost, PostMarker, UnreconciledPost } from './outlet.ts';
import type { PostParts } from './parts.ts';

/** How far before its record a post is looked for: instances' clocks may differ a little. */
const clockSlackMs = 5 * 60_000;

const boardNumber = (key: string): number | undefined => {
  const n = /^board:(\d+)$/.exec(key)?.[1];
  return n === undefined ? undefined : Number(n);
};

/** How the creator is told of a post that could not be looked for. */
function described(conference: Conference, key: string): UnreconciledPost {
  if (boardNumber(key) !== undefined) return { kind: 'leaderboard' };
  const day = /^recap:(.+)$/.exec(key)?.[1];
  if (day !== undefined) {
    return {
      kind: 'recap',
      dayNumber: dayNumber(conference, day),
      dayCount: eventDays(conference).length,
    };
  }
  return { kind: key === 'final' ? 'final' : 'pin-note' };
}

/**
 * Settles each record left `posting` by an earlier run (not one of `begun`, this run's own), as
 * the channel shows it: a post found there is recorded as posted with its ts (a leaderboard is
 * never posted twice); one certainly absent has its record removed, so it is posted once when
 * due; one Slack cannot say about stays recorded, never sent again, and its creator is told once
 * whichever instance finds it (as digests tell theirs). Leaderboards are settled first: the
 * other posts go in a leaderboard's thread. A recap the history cannot be read for just now
 * (Slack rate limits it) stays as it is, `unsettled`, for the next run: the leaderboard does not
 * wait for it. Returns the records as they now stand.
 */
export async function reconcilePosts(
  parts: PostParts,
  conference: Conference,
  posts: readonly ConferencePost[],
  begun: ReadonlySet<string>,
): Promise<{ readonly posts: ConferencePost[]; readonly unsettled: boolean }> {
  const stale = (post: ConferencePost) =>
    post.status === 'posting' && !post.noticed && !begun.has(post.key);
  if (!posts.some(stale)) return { posts: [...posts], unsettled: false };
  let unsettled = false;
  const settled = new Map(posts.map((post) => [post.key, post]));
  const order = [...posts].sort(
    (a, b) => Number(boardNumber(b.key) !== undefined) - Number(boardNumber(a.key) !== undefined),
  );
  for (const post of order) {
    if (!stale(post)) continue;
    let found: FoundPost;
    try {
      found = await look(parts, conference, post, threadOf(settled, post));
    } catch (error) {
      // Without its leaderboard a conference cannot go on: that waits for the next refresh.
      if (boardNumber(post.key) !== undefined || !(error instanceof SkipToNextRefreshError))
        throw error;
      parts.logger.info(
        { err: error.cause, conferenceId: conference.id, key: post.key },
        'an unconfirmed conference post is looked for at the next run',
      );
      unsettled = true;
      continue;
    }
    if (typeof found === 'object') {
      await parts.store.completePost(conference.id, post.key, found.ts);
      settled.set(post.key, { ...post, status: 'posted', messageTs: found.ts });
      parts.logger.info(
        { conferenceId: conference.id, key: post.key },
        'an unconfirmed conference post was found in the channel',
      );
    } else if (found === 'absent') {
      await parts.store.abandonPost(conference.id, post.key);
      settled.delete(post.key);
      parts.logger.info(
        { conferenceId: conference.id, key: post.key },
        'an unconfirmed conference post is not in the channel; it is posted when due',
      );
    } else {
      settled.set(post.key, { ...post, noticed: true });
      await tellCreator(parts, conference, post);
    }
  }
  return { posts: posts.flatMap((post) => settled.get(post.key) ?? []), unsettled };
}

/** The leaderboard a threaded post went under: the latest posted before it was begun. */
function threadOf(
  settled: ReadonlyMap<string, ConferencePost>,
  post: ConferencePost,
): string | undefined {
  if (boardNumber(post.key) !== undefined) return undefined;
  let thread: { n: number; ts: string } | undefined;
  for (const board of settled.values()) {
    const n = boardNumber(board.key);
    if (n === undefined || board.messageTs === undefined) continue;
    if (board.startedAt.getTime() > post.startedAt.getTime()) continue;
    if (thread === undefined || n > thread.n) thread = { n, ts: board.messageTs };
  }
  return thread?.ts;
}

/** In its thread first, then in the channel (a post whose leaderboard was lost went there). */
async function look(
  parts: PostParts,
  conference: Conference,
  post: ConferencePost,
  threadTs: string | undefined,
): Promise<FoundPost> {
  const poster = parts.posters.forTeam(conference.teamId);
  if (poster.find === undefined) return 'unknown';
  const find = poster.find.bind(poster);
  const marker: PostMarker = { conferenceId: conference.id, key: post.key };
  const since = new Date(post.startedAt.getTime() - clockSlackMs);
  try {
    if (threadTs !== undefined) {
      const inThread = await parts.slack(() => find(conference.channelId, marker, since, threadTs));
      if (inThread !== 'absent') return inThread;
    }
    return await parts.slack(() => find(conference.channelId, marker, since));
  } catch (error) {
    throw asRunError(error);
  }
}

async function tellCreator(
  parts: PostParts,
  conference: Conference,
  post: ConferencePost,
): Promise<void> {
  const context = { conferenceId: conference.id, key: post.key };
  if (!(await parts.store.noticePost(conference.id, post.key, parts.clock.now()))) return;
  parts.logger.warn(context, 'a conference post was never confirmed; telling its creator');
  await parts.posters
    .forTeam(conference.teamId)
    .notifyCreator(
      conference.creatorId,
      parts.words.unreconciled(conference, described(conference, post.key)),
    )
    .catch((cause: unknown) => parts.logger.warn({ err: cause, ...context }, 'creator not told'));
}
