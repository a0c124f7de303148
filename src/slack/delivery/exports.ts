/**
 * Where a CSV export goes in Slack: into the DM of the person who asked, or, for an answer that
 * everyone in a channel sees (a mention, a shared answer), into its thread there. Shared by the
 * lookups that ask for an export in their text and the Export CSV button.
 */
import type { CsvFile } from '../../flows/lookup/index.ts';
import type { SlackDeps } from '../deps.ts';
import type { Reply } from '../web-api/conversation.ts';
import { directMessageWith, uploadFile } from '../web-api/files.ts';

/** A person's id (`U…`, `W…`) where a conversation is expected: their DM with the app. */
const personId = /^[UW][A-Z0-9]+$/;

/**
 * Uploads `file` to `where`: a person's id means their DM with the app (opened first: uploads
 * take a conversation id), a DM its own conversation, a channel the thread of `where`.
 * @throws ExportFailedError (or SlackRateLimitedError) saying why the file did not arrive.
 */
export async function sendExport(
  deps: Pick<SlackDeps, 'slack'>,
  where: Reply,
  file: CsvFile,
): Promise<void> {
  const { chat } = deps.slack.forTeam(where.teamId);
  const channel = personId.test(where.channel)
    ? await directMessageWith(chat, where.channel)
    : where.channel;
  const thread = where.threadTs === undefined ? {} : { threadTs: where.threadTs };
  await uploadFile(chat, { channel, ...thread }, file);
}
