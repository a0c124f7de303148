import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import {
  conferencePostEvent,
  SlackConferencePoster,
} from '../../../src/slack/web-api/conference-poster.ts';

const marker = { conferenceId: 'k1', key: 'recap:2026-05-29' };
const since = new Date('2026-05-30T04:55:00Z');

/** A client whose history answers `pages` in turn, or fails with Slack's `refusal`. */
function clientWith(pages: readonly unknown[][], refusal?: string) {
  const asked: Record<string, unknown>[] = [];
  const answer = async (request: Record<string, unknown>) => {
    asked.push(request);
    if (refusal !== undefined) {
      throw Object.assign(new Error(refusal), {
        code: 'slack_webapi_platform_error',
        data: { ok: false, error: refusal },
      });
    }
    const page = asked.length - 1;
    return {
      ok: true,
      messages: pages[page] ?? [],
      response_metadata: { next_cursor: page + 1 < pages.length ? `c${page + 1}` : '' },
    };
  };
  const client = { conversations: { history: answer, replies: answer } } as unknown as WebClient;
  const poster = new SlackConferencePoster({ client, notifier: { notifyCreator: async () => {} } });
  return { poster, asked };
}

const posted = (ts: string, key: string) => ({
  ts,
  metadata: { event_type: conferencePostEvent, event_payload: { conference_id: 'k1', key } },
});

describe('SlackConferencePoster.find', () => {
  it('finds the post carrying the marker in the thread, reading the pages since it was begun', async () => {
    const { poster, asked } = clientWith([
      [posted('1.1', 'board:1'), { ts: '1.2' }],
      [posted('1.3', 'recap:2026-05-29')],
    ]);
    expect(await poster.find('C1', marker, since, '1.1')).toEqual({ ts: '1.3' });
    expect(asked[0]).toMatchObject({
      channel: 'C1',
      ts: '1.1',
      oldest: '1780116900.000000',
      include_all_metadata: true,
    });
    expect(asked[1]).toMatchObject({ cursor: 'c1' });
  });

  it('says absent when no message carries it, and unknown when the history cannot be read', async () => {
    expect(await clientWith([[posted('1.1', 'board:1')]]).poster.find('C1', marker, since)).toBe(
      'absent',
    );
    expect(await clientWith([], 'missing_scope').poster.find('C1', marker, since)).toBe('unknown');
  });
});
