/**
 * What a digest command does once it is read, whatever surface it came from (the slash command,
 * a button, the local console): create, list, show the history, run, pause, resume or remove through the
 * `DigestManager`, then answer in the renderer's words. Bolt-free, so the console and Slack agree.
 */
import { failureDetail } from '../digests/failures.ts';
import { runWindow } from '../digests/run-window.ts';
import type { RunNowResult } from '../digests/runner.ts';
import { isAppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { defined } from '../model/defined.ts';
import type { Digest } from '../model/digest.ts';
import type { SlackMessage } from '../model/message.ts';
import type { DigestCommand } from '../parsing/digest.ts';
import { renderError } from '../render/errors.ts';
import { historyRunsShown, renderDigestHistory } from '../render/management/digest-history.ts';
import {
  type DigestActionResult,
  renderDigestActionResult,
  renderDigestCreated,
  renderDigestDuplicate,
  renderDigestList,
  renderDigestListPages,
} from '../render/management/digest-management.ts';
import { accountLookbackDays } from './digest-checks.ts';
import type {
  CreatedDigest,
  DigestAccess,
  DigestActionOutcome,
  DigestCaller,
  DigestManager,
} from './digest-manager.ts';
import { isPersonsMistake } from './lookup/index.ts';

/** A run's outcome as the action result renders it. */
export function runActionResult(digest: Digest, result: RunNowResult): DigestActionResult {
  switch (result.outcome) {
    case 'posted':
    case 'already':
    case 'unconfirmed':
      return { action: 'run', digest, outcome: result.outcome };
    case 'failed':
      return {
        action: 'run',
        digest,
        outcome: 'failed',
        failure: {
          code: result.failure.code,
          ...defined({ detail: failureDetail(result.failure) }),
        },
      };
  }
}

/** A person's mistake at info, other app errors as warnings; anything else is ours: an error. */
export function logDigestFailure(logger: Logger, error: unknown, what: string): void {
  if (isPersonsMistake(error)) {
    logger.info({ code: error.code, reason: error.message }, what);
  } else if (isAppError(error)) logger.warn({ err: error, code: error.code }, what);
  else logger.error({ err: error }, what);
}

/** What a button's or command's outcome says, as the action result renders it. */
export function digestActionResult(outcome: DigestActionOutcome): DigestActionResult {
  return outcome.action === 'run'
    ? runActionResult(outcome.digest, outcome.result)
    : outcome.action === 'remove'
      ? { action: 'remove', digest: outcome.digest }
      : { action: outcome.action, digest: outcome.digest, changed: outcome.changed };
}

/** Everything a digest command needs from the surface it came from (Slack or the console). */
export interface DigestCommandContext {
  readonly manager: DigestManager;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly caller: DigestCaller;
  /** The channel the command was typed in: where a created digest posts. */
  readonly channelId: string;
  /**
   * The DM between the app and the caller, opened on demand: where a watch of one account and a
   * digest `to me` post (`watch @DrFerreiraI in #hcsm`). Without it they post where typed.
   */
  readonly directMessage?: () => Promise<string>;
  /**
   * The command was typed in the app's DM (`channelId` is that DM): a digest created there is
   * delivered to the person, as with `to me`.
   */
  readonly inDirectMessage?: boolean;
  readonly access: DigestAccess;
  /**
   * `all`: a long list of digests is sent page after page (a surface without buttons, such as the
   * console); by default its first page, with buttons to the others.
   */
  readonly listPages?: 'buttons' | 'all';
  /** `/influencers`, as the person typed it, for the commands quoted back. */
  readonly commandName: string;
  readonly botUserId?: string;
}

/**
 * The confirmation of a new or edited digest: what it does, and its next three runs with the
 * window each covers.
 */
export function confirmation(
  context: Pick<DigestCommandContext, 'now' | 'commandName' | 'botUserId'>,
  created: CreatedDigest,
  extra: { readonly notes: readonly string[]; readonly updated?: boolean },
): SlackMessage {
  return renderDigestCreated(created.digest, {
    now: context.now(),
    nextRuns: created.nextRuns,
    windows: created.nextRuns.map((slot) => runWindow(created.digest, slot)),
    notes: extra.notes,
    command: context.commandName,
    ...defined({ botUserId: context.botUserId, updated: extra.updated }),
    ...(created.databasesChecked === false ? { databasesUnchecked: true } : {}),
    ...(created.accountUnseen === true ? { accountUnseenDays: accountLookbackDays } : {}),
  });
}

/** Shows a message; `replace` replaces the previous one. True when it was shown. */
export type DigestReply = (message: SlackMessage, replace?: boolean) => Promise<boolean>;

/**
 * Does what a digest command asks and answers through `send`; never throws (failures are
 * answered in words). `refine` may adjust a new digest's spec before it is created.
 */
export async function answerDigestCommand(
  context: DigestCommandContext,
  parsed: Exclude<DigestCommand, { kind: 'help' }>,
  send: DigestReply,
  refine?: (
    parsed: Extract<DigestCommand, { kind: 'create' }>,
  ) => Promise<Pick<Extract<DigestCommand, { kind: 'create' }>, 'spec' | 'notes'>>,
): Promise<void> {
  const { manager, caller, access, commandName: command } = context;
  const now = () => context.now();
  try {
    switch (parsed.kind) {
      case 'create': {
        const { spec, notes } = refine ? await refine(parsed) : parsed;
        const toPerson =
          spec.account !== undefined || spec.toMe === true || context.inDirectMessage === true;
        const channelId =
          toPerson && context.directMessage !== undefined
            ? await context.directMessage()
            : context.channelId;
        const identical = await manager.identicalIn(caller.teamId, channelId, spec);
        if (identical !== undefined) {
          await send(
            renderDigestDuplicate(identical, { now: now(), viewerId: caller.userId, command }),
          );
          return;
        }
        const created = await manager.create(caller, channelId, spec, access, { toPerson });
        await send(confirmation(context, created, { notes }));
        return;
      }
      case 'edit': {
        const edited = await manager.edit(caller, parsed.id, parsed.edit, access);
        if (edited.kind === 'duplicate') {
          await send(
            renderDigestDuplicate(edited.duplicate, {
              now: now(),
              viewerId: caller.userId,
              command,
              edited: edited.digest,
            }),
          );
          return;
        }
        await send(confirmation(context, edited, { notes: edited.notes ?? [], updated: true }));
        return;
      }
      case 'list': {
        const [digests, outage] = await Promise.all([
          manager.listForChannel(caller.teamId, context.channelId),
          manager.outageOf(caller.teamId),
        ]);
        const shown = {
          now: now(),
          channelId: context.channelId,
          viewerId: caller.userId,
          command,
          ...defined({ outage }),
        };
        if (context.listPages === 'all') {
          for (const page of renderDigestListPages(digests, shown)) await send(page);
        } else await send(renderDigestList(digests, shown));
        return;
      }
      case 'history': {
        const { digest, runs } = await manager.history(caller.teamId, parsed.id, historyRunsShown);
        await send(renderDigestHistory(digest, runs, { now: now(), command }));
        return;
      }
      case 'run': {
        let started = false;
        const outcome = await manager.act(caller, 'run', parsed.id, access, {
          beforeRun: async (digest) => {
            started = await send(
              renderDigestActionResult(
                { action: 'run', digest, outcome: 'started' },
                { now: now(), command },
              ),
            );
          },
        });
        if (outcome.action !== 'run') return;
        await send(
          renderDigestActionResult(runActionResult(outcome.digest, outcome.result), {
            now: now(),
            command,
          }),
          started,
        );
        return;
      }
      case 'pause':
      case 'resume':
      case 'remove': {
        const outcome = await manager.act(caller, parsed.kind, parsed.id, access);
        if (outcome.action === 'run') return;
        await send(
          renderDigestActionResult(
            outcome.action === 'remove'
              ? { action: 'remove', digest: outcome.digest }
              : { action: outcome.action, digest: outcome.digest, changed: outcome.changed },
            { now: now(), command },
          ),
        );
        return;
      }
    }
  } catch (error) {
    logDigestFailure(context.logger, error, `digest ${parsed.kind} failed`);
    await send(
      renderError(error, context.botUserId === undefined ? {} : { botUserId: context.botUserId }),
    );
  }
}
