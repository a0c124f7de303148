/**
 * Follow-ups in a plain DM (no Messages tab): `how about #hcsm?` keeps the window, filter and
 * options of the question just asked, for half an hour, on whichever instance sharing the store
 * answers it. Signed requests against running apps; on SQLite always, and on PostgreSQL where
 * TEST_DATABASE_URL is set.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LookupRequest } from '../../src/model/lookup.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { renderError } from '../../src/render/errors.ts';
import { renderPending } from '../../src/render/lookups/status.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';
import type { Database } from '../../src/store/database.ts';
import { type StoreUnderTest, storesUnderTest } from '../digests/helpers.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { fixedNow, request, startLookupSandbox, userZone } from '../helpers/lookups.ts';
import { directMessageEvent, eventCallback } from '../helpers/payloads.ts';

const minute = 60_000;
const first = '#bcsm last month doctors by followers top 5';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startLookupSandbox();
});

afterAll(async () => {
  await sandbox?.close();
});

/** The first post answering a DM in `channel` after `before` posts there: the pending message or a refusal. */
async function firstPostAfter(h: Harness, channel: string, before: number): Promise<string> {
  const posts = () => h.slack.api('chat.postMessage').filter((c) => c.args.channel === channel);
  await h.slack.waitFor(() => posts().length > before, 15_000);
  return String(posts()[before]?.args.text);
}

for (const adapter of storesUnderTest) {
  describe.skipIf(!adapter.enabled)(`follow-ups in a plain DM (${adapter.name})`, () => {
    let db: StoreUnderTest | undefined;
    const instances: Harness[] = [];
    /** The apps' clock: the sandbox stays at {@link fixedNow}, the app moves on. */
    let at = fixedNow;

    /** A new instance, on a connection of its own to the test's database. */
    const start = async (): Promise<Harness> => {
      let store: Database;
      if (db === undefined) {
        db = await adapter.open();
        store = db.store;
      } else {
        store = await db.sibling();
      }
      const h = await startHarness({
        env: { RESPONSE_CACHE_TTL_MS: '0', LOOKUP_TIMEOUT_MS: '10000' },
        sharedSandbox: sandbox,
        overrides: { now: () => at, digests: { database: store } },
      });
      instances.push(h);
      return h;
    };

    /** Types `text` in the DM `channel` on `h` and returns the first post answering it. */
    const ask = async (h: Harness, channel: string, text: string): Promise<string> => {
      const before = h.slack.api('chat.postMessage').filter((c) => c.args.channel === channel);
      await h.send(eventCallback({ event: directMessageEvent(text, { channel }) }));
      const post = await firstPostAfter(h, channel, before.length);
      await h.settled();
      return post;
    };

    const pending = (asked: LookupRequest) => renderPending(asked, { now: at }).text;

    afterEach(async () => {
      await Promise.all(instances.splice(0).map((h) => h.close()));
      await db?.close();
      db = undefined;
      at = fixedNow;
    });

    it('keeps the previous question’s window, filter and options within half an hour', async () => {
      const h = await start();
      const channel = 'D0FOLLOW01';
      expect(await ask(h, channel, first)).toBe(pending(request(first)));
      at = new Date(fixedNow.getTime() + 29 * minute);
      expect(await ask(h, channel, 'how about #hcsm?')).toBe(
        pending(request('#hcsm last month doctors by followers top 5')),
      );
      // The follow-up is now the question the next one keeps.
      expect(await ask(h, channel, 'same for last week')).toBe(
        pending(request('#hcsm last week doctors by followers top 5', userZone)),
      );
      // Another DM keeps its own.
      expect(await ask(h, 'D0FOLLOW02', 'how about #hcsm?')).not.toBe(
        pending(request('#hcsm last month doctors by followers top 5')),
      );
    });

    it('reads a follow-up’s opening as a question of its own after 31 minutes', async () => {
      const h = await start();
      const channel = 'D0FOLLOW03';
      await ask(h, channel, first);
      at = new Date(fixedNow.getTime() + 31 * minute);
      const alone = parseLookup('how about #hcsm?', {
        now: at,
        zone: userZone,
        conversation: true,
      });
      const expected = alone instanceof Error ? renderError(alone).text : pending(alone);
      expect(await ask(h, channel, 'how about #hcsm?')).toBe(expected);
    });

    it('lets another instance sharing the store answer the follow-up alike', async () => {
      const a = await start();
      const b = await start();
      const channel = 'D0FOLLOW04';
      await ask(a, channel, first);
      at = new Date(fixedNow.getTime() + 5 * minute);
      expect(await ask(b, channel, 'how about #hcsm?')).toBe(
        pending(request('#hcsm last month doctors by followers top 5')),
      );
    });
  });
}
