import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { renderDigestHomeSection } from '../../render/digest-management.ts';
import { renderHome } from '../../render/home.ts';
import type { SlackDeps } from '../deps.ts';

/** Who is looking at the Home tab: sections show what belongs to this person in this workspace. */
export interface HomeViewer {
  readonly userId: string;
  readonly teamId: string | undefined;
}

/** "Your digests": the digests the viewer created in this workspace. */
async function digestSection(
  deps: SlackDeps,
  { userId, teamId }: HomeViewer,
): Promise<KnownBlock[]> {
  if (teamId === undefined) {
    deps.logger.warn({ userId }, 'no workspace known for this Home tab; digests left out');
    return [];
  }
  const digests = await deps.digests.manager.listForCreator(teamId, userId);
  return renderDigestHomeSection(digests, { now: deps.digests.now(), viewerId: userId });
}

/**
 * Publishes a person's Home tab: what the bot does, examples, the Look up button, then their
 * digests (a failing section is left out rather than hiding the tab). Called when the tab opens
 * and again after anything on it changes.
 */
export async function publishHome(
  deps: SlackDeps,
  client: WebClient,
  viewer: HomeViewer,
): Promise<void> {
  const sections: KnownBlock[] = [];
  try {
    sections.push(...(await digestSection(deps, viewer)));
  } catch (error) {
    deps.logger.error({ err: error }, 'a Home tab section failed; publishing without it');
  }
  await client.views.publish({ user_id: viewer.userId, view: renderHome({ sections }) });
}
