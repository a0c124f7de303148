import { describe, expect, it } from 'vitest';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { failure, lookup, saturday } from './lookup-helpers.ts';

const metricList =
  'mentions, retweets (reposts), tweets (posts), impressions (reach), replies or HSG score';

describe('metrics people say', () => {
  it.each([
    ['#hcsm last week most retweeted', 'retweets'],
    ['#hcsm last week by reach', 'impressions'],
    ['#hcsm last week highest reach', 'impressions'],
    ['#hcsm last week most mentions', 'mentions'],
    ['#hcsm last week most active', 'tweets'],
    ['#hcsm last week most influential', 'hsg_score'],
    ['#hcsm last week ranked by number of retweets', 'retweets'],
    ['#hcsm last week sorted by the reach', 'impressions'],
    ['#hcsm last week by reposts', 'retweets'],
    ['#hcsm last week by views', 'impressions'],
    ['#hcsm last week replies', 'replies'],
  ])('reads %j as ranking by %s', (text, metric) => {
    expect(lookup(text).metric).toBe(metric);
  });

  it.each([
    ['#hcsm last week by impresions', 'by impresions', '#hcsm last week by impressions'],
    ['#hcsm last week by retweats', 'by retweats', '#hcsm last week by retweets'],
    ['#hcsm by mentoins', 'by mentoins', '#hcsm by mentions'],
    ['#hcsm last week impresions', 'impresions', '#hcsm last week impressions'],
  ])('asks whether %j meant the metric, with the command corrected', (text, fragment, command) => {
    const error = failure(text);
    expect(error).toMatchObject({ reason: 'unrecognised', fragment });
    expect(error.message).toContain('did you mean');
    expect(error.message.endsWith(`Try: /influencers ${command}`)).toBe(true);
    expect(lookup(command).metric).toBeDefined();
  });

  it.each([
    ['#hcsm last week by likes', 'There is no ranking by likes'],
    ['#hcsm last week likes', 'There is no ranking by likes'],
    ['#hcsm last week by favourites', 'There is no ranking by favourites'],
    ['#hcsm last week by clout', "I can't rank by “by clout”"],
    ['#hcsm last week by engagement', 'There is no ranking by engagement'],
  ])('refuses %j, listing the metrics, never as a database', (text, words) => {
    const error = failure(text);
    expect(error.message).toContain(words);
    expect(error.message).toContain(metricList);
  });

  it.each([
    ['#oncology last month by engagement', '#oncology last month'],
    ['#hcsm engagement last week', '#hcsm last week'],
    ['#hcsm last week most engaged', '#hcsm last week'],
    ['#hcsm last week by interactions', '#hcsm last week'],
  ])('never reads %j as mentions: offers the near counts as commands that run', (text, kept) => {
    const error = failure(text);
    for (const metric of ['mentions', 'retweets', 'replies']) {
      const command = `${kept} by ${metric}`;
      expect(error.message).toContain(`\`${command}\``);
      expect(lookup(command).metric).toBe(metric);
    }
  });

  it('refuses engagement in a digest too', () => {
    const result = parseDigestCommand('digest #hcsm every monday at 9am by engagement', {
      now: saturday,
      zone: 'UTC',
    });
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toContain('There is no ranking by engagement');
  });

  it.each([
    ['digest #hcsm every monday at 9am most retweeted', 'retweets'],
    ['watch #hcsm by reach', 'impressions'],
  ])('reads %j in a digest as ranking by %s', (text, metric) => {
    expect(parseDigestCommand(text, { now: saturday, zone: 'UTC' })).toMatchObject({
      kind: 'create',
      spec: { metric },
    });
  });

  it.each([
    '#hcsm last week by followers',
    '#hcsm last week most followers',
    '#hcsm last week by follower count',
  ])('reads %j as the top 500 ranked by followers (issue 20)', (text) => {
    expect(parseLookup(text, { now: saturday, zone: 'UTC' })).toMatchObject({
      orderBy: 'followers',
    });
  });

  it('reads followers in a digest as a lookup does: the top 500 ranked here', () => {
    const command = parseDigestCommand('digest #hcsm every monday by followers', {
      now: saturday,
      zone: 'UTC',
    });
    expect(command).toMatchObject({ kind: 'create', spec: { orderBy: 'followers' } });
  });
});
