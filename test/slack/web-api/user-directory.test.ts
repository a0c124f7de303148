import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { displayNames, factsOf, UserDirectory } from '../../../src/slack/web-api/user-directory.ts';

/** A WebClient whose users.info answers from `answer`, counting calls. */
function client(
  answer: (user: string, includeLocale: boolean) => Promise<unknown>,
): WebClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    users: {
      info: async ({ user, include_locale }: { user: string; include_locale?: boolean }) => {
        calls.push(user);
        return answer(user, include_locale === true);
      },
    },
  } as unknown as WebClient & { calls: string[] };
}

describe('UserDirectory', () => {
  it('makes one users.info call for many concurrent callers and reuses the answer', async () => {
    const slack = client(async () => ({ ok: true, user: { tz: 'Europe/Paris', is_admin: true } }));
    const directory = new UserDirectory();
    const answers = await Promise.all(Array.from({ length: 50 }, () => directory.get(slack, 'U1')));
    await directory.get(slack, 'U1');
    expect(slack.calls).toEqual(['U1']);
    expect(answers[0]).toEqual({
      tz: 'Europe/Paris',
      isAdmin: true,
      displayName: undefined,
      locale: undefined,
    });
  });

  it('asks for the locale with the zone, once, and keeps it with the other facts', async () => {
    const slack = client(async (_, includeLocale) => ({
      ok: true,
      user: { tz: 'Europe/London', ...(includeLocale ? { locale: 'en-GB' } : {}) },
    }));
    const directory = new UserDirectory();
    await directory.get(slack, 'U4');
    await expect(directory.get(slack, 'U4')).resolves.toMatchObject({ locale: 'en-GB' });
    expect(slack.calls).toEqual(['U4']);
  });

  it('does not cache a failure, so the next caller asks Slack again', async () => {
    let fail = true;
    const slack = client(async () => {
      if (fail) throw new Error('ratelimited');
      return { ok: true, user: { name: 'jane' } };
    });
    const directory = new UserDirectory();
    await expect(directory.get(slack, 'U2')).rejects.toThrow('ratelimited');
    fail = false;
    await expect(directory.get(slack, 'U2')).resolves.toMatchObject({ displayName: 'jane' });
    expect(slack.calls).toEqual(['U2', 'U2']);
  });
});

describe('factsOf', () => {
  it.each([
    [{ profile: { display_name: 'Jane', real_name: 'Jane Doe' }, name: 'jdoe' }, 'Jane'],
    [{ profile: { display_name: ' ', real_name: 'Jane Doe' }, name: 'jdoe' }, 'Jane Doe'],
    [{ real_name: 'Jane Doe', name: 'jdoe' }, 'Jane Doe'],
    [{ name: 'jdoe' }, 'jdoe'],
    [{}, undefined],
  ])('names %o as %s', (user, name) => {
    expect(factsOf(user).displayName).toBe(name);
  });

  it('counts owners and primary owners as admins', () => {
    expect(factsOf({ is_owner: true }).isAdmin).toBe(true);
    expect(factsOf({ is_primary_owner: true }).isAdmin).toBe(true);
    expect(factsOf({ is_admin: false }).isAdmin).toBe(false);
    expect(factsOf(undefined)).toEqual({
      tz: undefined,
      isAdmin: false,
      displayName: undefined,
      locale: undefined,
    });
  });
});

describe('displayNames', () => {
  it('gives undefined when Slack cannot say, so the caller falls back', async () => {
    const names = displayNames(
      new UserDirectory(),
      client(async () => {
        throw new Error('user_not_found');
      }),
    );
    await expect(names('U3')).resolves.toBeUndefined();
  });
});
