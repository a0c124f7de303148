import { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { ExportFailedError, SlackRateLimitedError } from '../../../src/errors.ts';
import { singleAttemptClientOptions } from '../../../src/slack/web-api/client.ts';
import { directMessageWith, uploadFile } from '../../../src/slack/web-api/files.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';

const file = {
  filename: 'influencers #hcsm 2026-11-09T00-00-00Z.csv',
  title: 'Influencers of #hcsm',
  comment: 'Top influencers of #hcsm, 2026-11-09T00:00:00Z to 2026-11-16T00:00:00Z (UTC)',
  content: '\uFEFFrank,name\r\n1,"Dr ""Jane"", MD"\r\n2,\'=HYPERLINK()\r\n',
};

function client(slack: FakeSlack): WebClient {
  return new WebClient('xoxb-files', singleAttemptClientOptions({ fetch: slack.fetch }));
}

describe('uploadFile', () => {
  it('asks for an upload URL, posts the bytes there and completes the upload in the DM', async () => {
    const slack = new FakeSlack();
    await uploadFile(client(slack), { channel: 'D0DM00001' }, file);

    const [asked] = slack.api('files.getUploadURLExternal');
    expect(asked?.args).toMatchObject({
      filename: file.filename,
      length: String(Buffer.byteLength(file.content)),
    });
    expect(slack.files()).toEqual([
      {
        fileId: 'F0FILE0001',
        bytes: Buffer.from(file.content, 'utf8'),
        channel: 'D0DM00001',
        threadTs: undefined,
        comment: file.comment,
        filename: file.filename,
      },
    ]);
    const bytes = slack.files()[0]?.bytes ?? Buffer.alloc(0);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(slack.api('files.completeUploadExternal')[0]?.args.files).toEqual([
      { id: 'F0FILE0001', title: file.title },
    ]);
  });

  it('completes the upload in a thread when one is given', async () => {
    const slack = new FakeSlack();
    await uploadFile(client(slack), { channel: 'C0SHARED1', threadTs: '1700000000.000100' }, file);
    expect(slack.files()[0]).toMatchObject({ channel: 'C0SHARED1', threadTs: '1700000000.000100' });
  });

  it.each([
    ['missing_scope', 'missing_scope'],
    ['not_in_channel', 'not_in_channel'],
    ['channel_not_found', 'not_in_channel'],
    ['invalid_arguments', 'refused'],
  ] as const)('reads %s on completion as an export that failed (%s)', async (error, problem) => {
    const slack = new FakeSlack();
    slack.override('files.completeUploadExternal', () => ({ ok: false, error }));
    const failure = await uploadFile(client(slack), { channel: 'C0SHARED1' }, file).catch(
      (caught: unknown) => caught,
    );
    expect(failure).toBeInstanceOf(ExportFailedError);
    expect(failure).toMatchObject({ problem, channelId: 'C0SHARED1' });
  });

  it('reads a missing scope on the upload URL request as one', async () => {
    const slack = new FakeSlack();
    slack.override('files.getUploadURLExternal', () => ({
      ok: false,
      error: 'missing_scope',
      needed: 'files:write',
    }));
    await expect(uploadFile(client(slack), { channel: 'D0DM00001' }, file)).rejects.toMatchObject({
      code: 'export_failed',
      problem: 'missing_scope',
    });
    expect(slack.api('files.completeUploadExternal')).toEqual([]);
  });

  it('reads bytes the upload URL refuses as a refused export, and completes nothing', async () => {
    const slack = new FakeSlack();
    slack.uploadStatus = 500;
    await expect(uploadFile(client(slack), { channel: 'D0DM00001' }, file)).rejects.toMatchObject({
      code: 'export_failed',
      problem: 'refused',
    });
    expect(slack.api('files.completeUploadExternal')).toEqual([]);
  });

  it('passes a rate limit on as one', async () => {
    const slack = new FakeSlack();
    slack.rateLimit('files.getUploadURLExternal', 20);
    await expect(uploadFile(client(slack), { channel: 'D0DM00001' }, file)).rejects.toBeInstanceOf(
      SlackRateLimitedError,
    );
  });
});

describe('directMessageWith', () => {
  it('opens the DM with a person and gives its id', async () => {
    const slack = new FakeSlack();
    expect(await directMessageWith(client(slack), 'U0PERSON1')).toBe('D0PERSON1');
    expect(slack.api('conversations.open')[0]?.args.users).toBe('U0PERSON1');
  });

  it('reads a missing scope as an export that cannot be sent', async () => {
    const slack = new FakeSlack();
    slack.override('conversations.open', () => ({ ok: false, error: 'missing_scope' }));
    await expect(directMessageWith(client(slack), 'U0PERSON1')).rejects.toMatchObject({
      code: 'export_failed',
      problem: 'missing_scope',
    });
  });
});
