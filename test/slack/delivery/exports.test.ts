import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.ts';
import { sendExport } from '../../../src/slack/delivery/exports.ts';
import { singleTokenAccess } from '../../../src/slack/web-api/access.ts';
import { UserDirectory } from '../../../src/slack/web-api/user-directory.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';

const file = {
  filename: 'ranking.csv',
  title: 'Ranking',
  comment: 'The ranking',
  content: '\uFEFFa\r\n',
};

/** The bot token's access, as the app builds it: every workspace's `chat` is its client. */
function deps(slack: FakeSlack) {
  return {
    slack: singleTokenAccess({
      slack: { botToken: { reveal: () => 'xoxb-export' } },
      logger: silentLogger,
      fetch: slack.fetch,
      directory: new UserDirectory(),
    }),
  };
}

describe('sendExport', () => {
  it('opens the DM of a person named by their id, then uploads there', async () => {
    const slack = new FakeSlack();
    await sendExport(deps(slack), { teamId: 'T0TEAM', channel: 'U0PERSON1' }, file);
    expect(slack.api('conversations.open').map((call) => call.args.users)).toEqual(['U0PERSON1']);
    expect(slack.files().map(({ channel, threadTs }) => [channel, threadTs])).toEqual([
      ['D0PERSON1', undefined],
    ]);
  });

  it('uploads into a conversation named by its id, in its thread when there is one', async () => {
    const slack = new FakeSlack();
    await sendExport(deps(slack), { teamId: 'T0TEAM', channel: 'D0DIRECT01' }, file);
    await sendExport(
      deps(slack),
      { teamId: 'T0TEAM', channel: 'C0CHANNEL1', threadTs: '1700000000.000100' },
      file,
    );
    expect(slack.api('conversations.open')).toEqual([]);
    expect(slack.files().map(({ channel, threadTs }) => [channel, threadTs])).toEqual([
      ['D0DIRECT01', undefined],
      ['C0CHANNEL1', '1700000000.000100'],
    ]);
  });
});
