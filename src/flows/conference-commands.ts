/**
 * What a conference command does once it is read, whatever surface it came from (the slash
 * command, the local console): through the `ConferenceManager`, answered in the renderer's
 * words. Bolt-free, so the console and Slack agree.
 */

import type { AnalyticsApi } from '../analytics/types.ts';
import type { Clock } from '../digests/clock.ts';
import type { ConferencePoster } from '../digests/conferences/outlet.ts';
import { ConferenceRunner, type ConferenceRunnerOptions } from '../digests/conferences/runner.ts';
import type { PerTeam } from '../digests/per-team.ts';
import type { Logger } from '../logger.ts';
import type { CanvasWriter } from '../model/canvas.ts';
import type { SlackMessage } from '../model/message.ts';
import type { ConferenceCommand } from '../parsing/conference.ts';
import { conferenceWords } from '../render/conferences/conference.ts';
import { renderError } from '../render/errors.ts';
import {
  renderConferenceAction,
  renderConferenceCreated,
  renderConferenceDuplicate,
  renderConferenceHelp,
  renderConferenceList,
} from '../render/management/conference-management.ts';
import type { Database } from '../store/database.ts';
import { ConferenceCanvases } from './conference-canvas.ts';
import type { ConferenceManager } from './conference-manager.ts';
import { logDigestFailure } from './digest-commands.ts';
import type { DigestAccess, DigestCaller } from './digest-manager.ts';

/** Everything a conference command needs from the surface it came from. */
export interface ConferenceCommandContext {
  readonly manager: ConferenceManager;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly caller: DigestCaller;
  /** The channel the command was typed in: where a new leaderboard posts. */
  readonly channelId: string;
  readonly access: DigestAccess;
  readonly commandName: string;
  readonly botUserId?: string;
}

/**
 * Does what a conference command asks and answers through `send`; never throws. A conference
 * created while its event is on gets its leaderboard right after the confirmation.
 */
export async function answerConferenceCommand(
  context: ConferenceCommandContext,
  parsed: ConferenceCommand,
  send: (message: SlackMessage) => Promise<unknown>,
): Promise<void> {
  const { manager, caller, access, commandName: command } = context;
  const options = () => ({ now: context.now(), command });
  try {
    switch (parsed.kind) {
      case 'help':
        await send(renderConferenceHelp(command));
        return;
      case 'create': {
        const created = await manager.create(
          caller,
          context.channelId,
          parsed.spec,
          access,
          parsed.canvas === true ? { canvas: true } : {},
        );
        if (created.kind === 'duplicate') {
          await send(
            renderConferenceDuplicate(created.conference, {
              now: context.now(),
              zone: parsed.spec.zone,
            }),
          );
          return;
        }
        await send(
          renderConferenceCreated(created.conference, {
            ...options(),
            unchecked: created.unchecked,
          }),
        );
        if (created.conference.nextRunAt.getTime() <= context.now().getTime()) await manager.tick();
        return;
      }
      case 'list':
        await send(
          renderConferenceList(await manager.listForChannel(caller.teamId, context.channelId), {
            ...options(),
            channelId: context.channelId,
          }),
        );
        return;
      case 'stop':
        await send(
          renderConferenceAction(await manager.stop(caller, parsed.id, access), options()),
        );
        return;
      case 'edit': {
        const settings = {
          ...(parsed.watch === undefined ? {} : { watch: parsed.watch }),
          ...(parsed.refreshMinutes === undefined ? {} : { refreshMinutes: parsed.refreshMinutes }),
          ...(parsed.canvas === undefined ? {} : { canvas: parsed.canvas }),
        };
        await send(
          renderConferenceAction(
            await manager.edit(caller, parsed.id, settings, access),
            options(),
          ),
        );
        return;
      }
      case 'tick': {
        const updated = await manager.tickNow(caller.teamId, context.channelId);
        await send(renderConferenceAction({ kind: 'ticked', updated }, options()));
        return;
      }
    }
  } catch (error) {
    logDigestFailure(context.logger, error, `conference ${parsed.kind} failed`);
    await send(
      renderError(error, {
        subject: 'conference',
        ...(context.botUserId === undefined ? {} : { botUserId: context.botUserId }),
      }),
    );
  }
}

export interface ConferenceRunnerBuildOptions {
  /** The conferences, and their canvases' records. */
  readonly db: Pick<Database, 'conferences' | 'canvases'>;
  readonly analytics: AnalyticsApi;
  /** Where each workspace's conferences post, edit and pin. */
  readonly posters: PerTeam<ConferencePoster>;
  readonly logger: Logger;
  readonly clock?: Clock;
  readonly options?: ConferenceRunnerOptions;
  /** Where each workspace's conference canvases are written; without it none is kept. */
  readonly canvasWriters?: PerTeam<CanvasWriter>;
}

/**
 * The conference engine as the app, `digests run-due` and the console build it: with its words
 * and, given a canvas writer, its canvases.
 */
export function createConferenceRunner(options: ConferenceRunnerBuildOptions): ConferenceRunner {
  const { clock, posters, canvasWriters } = options;
  const canvas =
    canvasWriters === undefined
      ? undefined
      : new ConferenceCanvases({
          conferences: options.db.conferences,
          canvases: options.db.canvases.conferences,
          writers: canvasWriters,
          notifyCreator: (teamId, userId, message) =>
            posters.forTeam(teamId).notifyCreator(userId, message),
          logger: options.logger,
          now: () => (clock === undefined ? new Date() : clock.now()),
        });
  return new ConferenceRunner({
    conferences: options.db.conferences,
    analytics: options.analytics,
    posters,
    words: conferenceWords,
    ...(canvas === undefined ? {} : { canvas }),
    logger: options.logger,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.options === undefined ? {} : { options: options.options }),
  });
}
