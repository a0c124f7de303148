import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.ts';
import { ResponseUrl, responseUrlMaxUses } from '../../../src/slack/web-api/response-url.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';

describe('ResponseUrl', () => {
  it('posts at most five times and drops the sixth', async () => {
    const slack = new FakeSlack();
    const url = 'https://hooks.slack.test/commands/T1/1/abc';
    const channel = new ResponseUrl(url, slack.fetch, silentLogger);
    const sent = [];
    for (let i = 0; i < responseUrlMaxUses + 1; i += 1)
      sent.push(await channel.send({ text: `post ${i}`, replace_original: true }));
    expect(sent).toEqual([true, true, true, true, true, false]);
    expect(slack.responses(url)).toHaveLength(5);
    expect(channel.uses).toBe(5);
  });

  it('reports a refused post as not sent', async () => {
    const channel = new ResponseUrl(
      'https://x.test/r',
      async () => new Response('expired_url', { status: 404 }),
      silentLogger,
    );
    expect(await channel.send({ text: 'late' })).toBe(false);
  });
});
