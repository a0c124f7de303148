import { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { sendExport } from '../../../src/slack/delivery/exports.ts';
import { singleAttemptClientOptions } from '../../../src/slack/web-api/client.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';

const file = {
  filename: 'ranking.csv',
  title: 'Ranking',
  comment: 'The ranking',
  content: '\uFEFFa\r\n',
};

function deps(slack: FakeSlack) {
  return { chat: new WebClient('xoxb-export', singleAttemptClientOptions({ fetch: slack.fetch })) };
}

describe('sendExport', () => {
  it('opens the DM of a person named by their id, then uploads there', async () => {
    const slack = new FakeSlack();
    await sendExport(deps(slack), { channel: 'U0PERSON1' }, file);
    expect(slack.api('conversations.open').map((call) => call.args.users)).toEqual(['U0PERSON1']);
    expect(slack.files().map(({ channel, threadTs }) => [channel, threadTs])).toEqual([
      ['D0PERSON1', undefined],
    ]);
  });

  it('uploads into a conversation named by its id, in its thread when there is one', async () => {
    const slack = new FakeSlack();
    await sendExport(deps(slack), { channel: 'D0DIRECT01' }, file);
    await sendExport(deps(slack), { channel: 'C0CHANNEL1', threadTs: '1700000000.000100' }, file);
    expect(slack.api('conversations.open')).toEqual([]);
    expect(slack.files().map(({ channel, threadTs }) => [channel, threadTs])).toEqual([
      ['D0DIRECT01', undefined],
      ['C0CHANNEL1', '1700000000.000100'],
    ]);
  });
});
