import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { section } from '../../../src/render/blocks.ts';
import { slackDigestOutlet } from '../../../src/slack/web-api/digest-outlet.ts';
import { UserDirectory } from '../../../src/slack/web-api/user-directory.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';

const slack = { token: 'xoxb-outlet-token' };
const withPicture: SlackMessage = {
  text: 'digest',
  blocks: [
    section('*1.* A', { type: 'image', image_url: 'https://gone.example/a.png', alt_text: 'A' }),
  ],
};

describe('slackDigestOutlet', () => {
  it('posts through the given fetch and posts again without what Slack refuses', async () => {
    const fake = new FakeSlack();
    fake.refuseImages = true;
    const outlet = slackDigestOutlet(slack, silentLogger, { fetch: fake.fetch });

    await outlet.poster.post('C1', withPicture);

    const posts = fake.calls.filter((call) => call.method === 'chat.postMessage');
    expect(posts).toHaveLength(2);
    expect(JSON.stringify(posts[0]?.args.blocks)).toContain('image_url');
    expect(posts[1]?.args.blocks).toEqual([section('*1.* A')]);
    expect(posts[0]?.authorization).toBe('Bearer xoxb-outlet-token');
  });

  it('names creators from the directory it is given, so the app keeps one users.info cache', async () => {
    const fake = new FakeSlack();
    const directory = new UserDirectory();
    const outlet = slackDigestOutlet(slack, silentLogger, { fetch: fake.fetch, directory });

    const first = await outlet.displayName('U123');
    const again = await outlet.displayName('U123');

    expect(first).toBeDefined();
    expect(again).toBe(first);
    expect(fake.calls.filter((call) => call.method === 'users.info')).toHaveLength(1);
  });
});
