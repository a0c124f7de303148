import { describe, expect, it } from 'vitest';
import { SlackBlocksRefusedError } from '../../../src/errors.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { section } from '../../../src/render/blocks.ts';
import { blocksFallbackPoster } from '../../../src/slack/web-api/blocks-fallback.ts';

const withPicture: SlackMessage = {
  text: 'digest',
  blocks: [
    section('*1.* A', { type: 'image', image_url: 'https://gone.example/a.png', alt_text: 'A' }),
  ],
};

const refusal = (error: string) =>
  Object.assign(new Error(`An API error occurred: ${error}`), {
    code: 'slack_webapi_platform_error',
    data: { ok: false, error },
  });

describe('blocksFallbackPoster', () => {
  it('posts a digest again without pictures when Slack refuses its blocks', async () => {
    const sent: SlackMessage[] = [];
    const poster = blocksFallbackPoster({
      post: async (_channel, message) => {
        sent.push(message);
        if (sent.length === 1) throw refusal('invalid_blocks');
        return { ts: '1.2' };
      },
      notifyCreator: async () => {},
      notifyAdmins: async () => {},
      workspace: async () => 'T1',
    });
    expect(await poster.post('C1', withPicture)).toEqual({ ts: '1.2' });
    expect(sent).toEqual([withPicture, { text: 'digest', blocks: [section('*1.* A')] }]);
  });

  it('posts again without pictures when the refusal arrives as the poster hands it on', async () => {
    const sent: SlackMessage[] = [];
    const poster = blocksFallbackPoster({
      post: async (_channel, message) => {
        sent.push(message);
        if (sent.length === 1) throw new SlackBlocksRefusedError('image');
        return { ts: '1.3' };
      },
      notifyCreator: async () => {},
      notifyAdmins: async () => {},
      workspace: async () => 'T1',
    });
    expect(await poster.post('C1', withPicture)).toEqual({ ts: '1.3' });
    expect(sent).toHaveLength(2);
  });

  it('passes any other failure on without a second post', async () => {
    let posts = 0;
    const poster = blocksFallbackPoster({
      post: async () => {
        posts += 1;
        throw refusal('channel_not_found');
      },
      notifyCreator: async () => {},
      notifyAdmins: async () => {},
      workspace: async () => 'T1',
    });
    await expect(poster.post('C1', withPicture)).rejects.toThrow('channel_not_found');
    expect(posts).toBe(1);
  });
});
