import { describe, expect, it } from 'vitest';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import { renderCsv } from '../../../src/render/lookups/csv.ts';
import { influencer, lookup } from '../helpers.ts';

const request: LookupRequest = {
  ...lookup,
  databases: ['#hcsm', 'breast cancer'],
  metric: 'impressions',
};

const header =
  'Rank,Display name,Handle,Profile URL,HSG score,Mentions,Retweets,Tweets,Impressions,Replies,Followers,Categories';

/** The file's lines without the byte order mark. */
function lines(content: string): string[] {
  return content.slice(1).split('\r\n');
}

describe('renderCsv', () => {
  it('writes one row per person with exact figures, full names and profile links', () => {
    const file = renderCsv(request, {
      influencers: [
        influencer({
          rank: 1,
          screenName: 'drjane_doe',
          displayName: 'Dr. Jane Doe',
          hsgScore: 87.35,
          stakeholderCategories: [{ name: 'Doctor' }, { name: 'Researcher/Academic' }],
          followersCount: 21_500,
          metrics: { mentions: 1234, impressions: 1_500_000 },
        }),
        influencer({ rank: 2, screenName: '@solo', metrics: { replies: 0 } }),
      ],
    });
    expect(file.content.startsWith('\uFEFF')).toBe(true);
    expect(file.content.endsWith('\r\n')).toBe(true);
    expect(lines(file.content)).toEqual([
      header,
      '1,Dr. Jane Doe,drjane_doe,https://x.com/drjane_doe,87.35,1234,,,1500000,,21500,Doctor; Researcher/Academic',
      '2,,solo,https://x.com/solo,,,,,,0,,',
      '',
    ]);
  });

  it('names the query in the file name (safe characters only), the title and the comment', () => {
    const file = renderCsv(request, { influencers: [influencer({ rank: 1 })] });
    expect(file.filename).toBe(
      'influencers_hcsm+breast-cancer_2026-11-14T05-00-00Z_2026-11-21T05-00-00Z_America-New_York_impressions.csv',
    );
    expect(file.filename).toMatch(/^[A-Za-z0-9._+-]+$/);
    expect(file.title).toBe('Top influencer for #hcsm, "breast cancer", ranked by impressions');
    expect(file.comment).toBe(
      'Top influencer for #hcsm, "breast cancer", ranked by impressions · ' +
        '2026-11-14T05:00:00Z to 2026-11-21T05:00:00Z · zone America/New_York',
    );
  });

  it('ranks by mentions when the request names no metric, and keeps to the top N', () => {
    const { metric: _metric, ...plain } = request;
    const file = renderCsv(
      { ...plain, top: 2 },
      { influencers: [1, 2, 3].map((rank) => influencer({ rank })) },
    );
    expect(file.filename).toMatch(/_mentions\.csv$/);
    expect(lines(file.content)).toHaveLength(4);
  });

  it('quotes cells with commas, quotes and line breaks as RFC 4180 says', () => {
    const file = renderCsv(request, {
      influencers: [
        influencer({
          rank: 1,
          displayName: 'Bob "the" Builder, MD',
          stakeholderCategories: [{ name: 'A, B' }],
        }),
      ],
    });
    expect(lines(file.content)[1]).toBe(
      '1,"Bob ""the"" Builder, MD",user1,https://x.com/user1,,,,,,,,"A, B"',
    );
  });

  it.each([
    ['=HYPERLINK("http://evil")', `"'=HYPERLINK(""http://evil"")"`],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['plain', 'plain'],
  ])('neutralizes the display name %j against formula injection', (name, cell) => {
    const file = renderCsv(request, {
      influencers: [influencer({ rank: 1, screenName: 'x', displayName: name })],
    });
    expect(lines(file.content)[1]).toBe(`1,${cell},x,https://x.com/x,,,,,,,,`);
  });

  it('neutralizes handles and categories too, and encodes the handle in the link', () => {
    const file = renderCsv(request, {
      influencers: [
        influencer({
          rank: 1,
          screenName: '=cmd|x',
          stakeholderCategories: [{ name: '-Doctor' }],
        }),
      ],
    });
    expect(lines(file.content)[1]).toBe("1,,'=cmd|x,https://x.com/%3Dcmd%7Cx,,,,,,,,'-Doctor");
  });
});
