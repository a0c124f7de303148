import type { ActionsBlock } from '@slack/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../../src/model/message.ts';
import { digestActionsBlockPrefix, digestListPageIds } from '../../../src/render/ids.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import {
  renderDigestList,
  renderDigestListPages,
} from '../../../src/render/management/digest-management.ts';
import { digest, now, texts } from '../helpers.ts';

const many = (count: number) =>
  Array.from({ length: count }, (_, i) => digest({ id: `A${String(i).padStart(5, '0')}` }));

/** The ids of the digests a page shows, by their buttons. */
function shown(message: SlackMessage): string[] {
  return message.blocks.flatMap((block) =>
    block.type === 'actions' && block.block_id?.startsWith(digestActionsBlockPrefix)
      ? [block.block_id.slice(digestActionsBlockPrefix.length)]
      : [],
  );
}

/** The page buttons: their action ids and values. */
function pageButtons(message: SlackMessage): [string, string][] {
  return message.blocks.flatMap((block) =>
    block.type === 'actions' && !block.block_id?.startsWith(digestActionsBlockPrefix)
      ? (block as ActionsBlock).elements.flatMap((element) =>
          element.type === 'button' ? [[element.action_id ?? '', element.value ?? '']] : [],
        )
      : [],
  ) as [string, string][];
}

const options = { now, channelId: 'C0123', viewerId: 'U42' };

describe('the digest list, page by page', () => {
  it('shows more than 24 digests on pages joined by Next and Previous', () => {
    const digests = many(30);
    const first = renderDigestList(digests, options);
    expect(shown(first).length).toBeGreaterThanOrEqual(20);
    expect(pageButtons(first)).toEqual([[digestListPageIds.next, '1']]);
    expect(texts(first.blocks)[0]).toBe('*Digests in <#C0123>* (30) · page 1 of 2');
    const second = renderDigestList(digests, { ...options, page: 1 });
    expect(pageButtons(second)).toEqual([[digestListPageIds.previous, '0']]);
    expect([...shown(first), ...shown(second)]).toEqual(digests.map((each) => each.id));
    for (const page of [first, second]) expect(checkBlockKitLimits(page)).toEqual([]);
    expect(texts(first.blocks).join('\n')).not.toContain('not shown');
  });

  it('shows a middle page with both buttons, and the last page for a page past the end', () => {
    const digests = many(70);
    const middle = renderDigestList(digests, { ...options, page: 1 });
    expect(pageButtons(middle)).toEqual([
      [digestListPageIds.previous, '0'],
      [digestListPageIds.next, '2'],
    ]);
    const last = renderDigestList(digests, { ...options, page: 99 });
    expect(shown(last).at(-1)).toBe('A00069');
    expect(pageButtons(last).map(([id]) => id)).toEqual([digestListPageIds.previous]);
  });

  it('shows the page that holds a digest, after a button under it was pressed', () => {
    const digests = many(30);
    const page = renderDigestList(digests, { ...options, holding: 'A00027' });
    expect(shown(page)).toContain('A00027');
    expect(pageButtons(page)).toEqual([[digestListPageIds.previous, '0']]);
  });

  it('has no page buttons when every digest fits', () => {
    const page = renderDigestList(many(3), options);
    expect(shown(page)).toEqual(['A00000', 'A00001', 'A00002']);
    expect(pageButtons(page)).toEqual([]);
    expect(texts(page.blocks)[0]).toBe('*Digests in <#C0123>* (3)');
  });

  it('gives every page at once, without page buttons, for a surface that prints them all', () => {
    const digests = many(60);
    const pages = renderDigestListPages(digests, options);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap(shown)).toEqual(digests.map((each) => each.id));
    expect(pages.flatMap(pageButtons)).toEqual([]);
    for (const page of pages) expect(checkBlockKitLimits(page)).toEqual([]);
  });

  it('keeps every page within the limits and shows each digest once, whatever the ids', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 120 }), (count) => {
        const digests = many(count);
        const pages = renderDigestListPages(digests, options);
        expect(pages.flatMap(shown)).toEqual(digests.map((each) => each.id));
        for (let page = 0; page < pages.length; page++) {
          const one = renderDigestList(digests, { ...options, page });
          expect(checkBlockKitLimits(one)).toEqual([]);
          expect(shown(one)).toEqual(shown(pages[page] as SlackMessage));
        }
      }),
      { numRuns: 25 },
    );
  });
});
