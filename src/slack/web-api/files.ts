/**
 * CSV exports into Slack: `files.uploadV2` (files.getUploadURLExternal, a POST of the bytes to the
 * URL Slack gives, files.completeUploadExternal) into the DM with the person who asked, or into
 * the thread of an answer everyone in a channel sees. Uploads name a conversation by its id: a
 * user id is not one, so a person's DM is opened first (conversations.open).
 */
import type { WebClient } from '@slack/web-api';
import { toExportError } from './failures.ts';

/** A file as the renderer writes it: its name, title, the comment posted with it, its text. */
export interface UploadFile {
  readonly filename: string;
  readonly title: string;
  readonly comment: string;
  readonly content: string;
}

/** Where a file goes: a conversation id (`D…`, `C…`), and a thread in it when set. */
export interface UploadTarget {
  readonly channel: string;
  readonly threadTs?: string;
}

/**
 * The id of the DM between the app and `userId`, which uploads need.
 * @throws ExportFailedError when Slack refuses to open it (a scope the installation lacks).
 */
export async function directMessageWith(client: WebClient, userId: string): Promise<string> {
  try {
    const opened = await client.conversations.open({ users: userId });
    const id = opened.channel?.id;
    // Not an AppError: toExportError just below turns it into an ExportFailedError.
    if (typeof id !== 'string' || id === '') throw new Error('conversations.open gave no channel');
    return id;
  } catch (error) {
    throw toExportError(undefined, error);
  }
}

/**
 * Uploads `file` into `where`, with its comment as the message that carries it. A DM is the
 * person's own conversation with the app; a channel thread needs the bot in that channel.
 * @throws ExportFailedError (or SlackRateLimitedError) saying why the file did not arrive.
 */
export async function uploadFile(
  client: WebClient,
  where: UploadTarget,
  file: UploadFile,
): Promise<void> {
  const shown = {
    filename: file.filename,
    title: file.title,
    initial_comment: file.comment,
    content: file.content,
  };
  try {
    await client.filesUploadV2(
      where.threadTs === undefined
        ? { channel_id: where.channel, ...shown }
        : { channel_id: where.channel, thread_ts: where.threadTs, ...shown },
    );
  } catch (error) {
    throw toExportError(where.channel, error);
  }
}
