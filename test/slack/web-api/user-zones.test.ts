import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.ts';
import { UserZones } from '../../../src/slack/web-api/user-zones.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';

describe('UserZones', () => {
  const client = (slack: FakeSlack) =>
    ({
      users: {
        info: async (args: { user: string }) => {
          const response = await slack.fetch(`${slack.apiUrl}users.info`, {
            method: 'POST',
            body: `user=${args.user}`,
          });
          return (await response.json()) as { user?: { tz?: string } };
        },
      },
    }) as unknown as WebClient;

  it('reads the profile zone once and caches it', async () => {
    const slack = new FakeSlack({ zones: { U1: 'Asia/Tokyo' } });
    const zones = new UserZones({ logger: silentLogger, waitMs: 500 });
    expect(await zones.zoneOf(client(slack), 'U1')).toEqual({
      zone: 'Asia/Tokyo',
      fallback: false,
    });
    expect(await zones.zoneOf(client(slack), 'U1')).toEqual({
      zone: 'Asia/Tokyo',
      fallback: false,
    });
    expect(slack.api('users.info')).toHaveLength(1);
  });

  it('reads a profile zone as the parser does: old names canonical, abbreviations refused', async () => {
    const slack = new FakeSlack({ zones: { U5: 'Asia/Calcutta', U6: 'EST' } });
    const zones = new UserZones({ logger: silentLogger, waitMs: 500 });
    expect(await zones.zoneOf(client(slack), 'U5')).toEqual({
      zone: 'Asia/Kolkata',
      fallback: false,
    });
    expect(await zones.zoneOf(client(slack), 'U6')).toEqual({ zone: 'UTC', fallback: true });
  });

  it('falls back to UTC past the bounded wait and caches the late answer', async () => {
    const slack = new FakeSlack({ zones: { U2: 'Europe/Berlin' } });
    slack.usersInfoDelayMs = 200;
    const zones = new UserZones({ logger: silentLogger, waitMs: 20 });
    expect(await zones.zoneOf(client(slack), 'U2')).toEqual({ zone: 'UTC', fallback: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await zones.zoneOf(client(slack), 'U2')).toEqual({
      zone: 'Europe/Berlin',
      fallback: false,
    });
  });

  it('falls back to UTC when users.info fails or gives no zone', async () => {
    const slack = new FakeSlack();
    slack.override('users.info', () => ({ ok: false, error: 'user_not_found' }));
    const zones = new UserZones({ logger: silentLogger, waitMs: 500 });
    const failing = {
      users: {
        info: async () => {
          throw new Error('user_not_found');
        },
      },
    } as unknown as WebClient;
    expect(await zones.zoneOf(failing, 'U3')).toEqual({ zone: 'UTC', fallback: true });
    const noZone = {
      users: { info: async () => ({ ok: true, user: {} }) },
    } as unknown as WebClient;
    expect(await zones.zoneOf(noZone, 'U4')).toEqual({ zone: 'UTC', fallback: true });
  });
});
