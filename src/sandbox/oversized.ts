/**
 * Answers far larger than any honest one, for the faults that test a client's cap on what it
 * reads: a service that ignores `limit` (every ranked account, then made-up ones until the answer
 * holds the number of items asked for: 200,000 items are some 75 MB) and an error page with a
 * long trace. Bodies are generated as they are written, a part at a time, so the sandbox never
 * holds one whole however large it is.
 */
import { defined } from '../model/defined.ts';
import type { StreamedAnswer } from './answer.ts';
import type { WireInfluencer } from './data.ts';
import { population } from './population.ts';
import type { InfluencersPayload } from './routes.ts';

/** About what one write hands the socket: large enough to be quick, small next to the body. */
const partChars = 64 * 1024;

/**
 * The payload with `items` influencers: its ranking first (cut short if `items` is smaller), then
 * accounts of the population again under new names, with no activity, ranked after it. With
 * `declareLength` the body is generated once more beforehand to count its bytes.
 */
export function unlimitedAnswer(
  payload: InfluencersPayload,
  items: number,
  declareLength = false,
): StreamedAnswer {
  const parts = () => unlimitedBody(payload, items);
  let declaredBytes: number | undefined;
  if (declareLength) {
    declaredBytes = 0;
    for (const part of parts()) declaredBytes += Buffer.byteLength(part);
  }
  return {
    status: 200,
    contentType: 'application/json; charset=utf-8',
    ...(declaredBytes === undefined ? {} : { declaredBytes }),
    parts,
  };
}

function* unlimitedBody(payload: InfluencersPayload, items: number): Generator<string> {
  const { influencers, ...rest } = payload;
  let part = '{"influencers":[';
  for (let index = 0; index < items; index += 1) {
    if (index > 0) part += ',';
    part += JSON.stringify(influencers[index] ?? madeUpInfluencer(index));
    if (part.length >= partChars) {
      yield part;
      part = '';
    }
  }
  yield `${part}],${JSON.stringify(rest).slice(1)}`;
}

/** The `index`-th item of a long answer: an account of the population under a numbered name. */
function madeUpInfluencer(index: number): WireInfluencer {
  const account = population[index % population.length] ?? population[0];
  if (account === undefined) throw new Error('the sandbox population is empty');
  return {
    symplurrank: index + 1,
    hsg_score: account.hsgScore,
    mentions: 0,
    tweets: 0,
    retweets: 0,
    replies: 0,
    impressions: 0,
    urls: 0,
    user: {
      id: `${account.id}${index}`,
      screen_name: `${account.screenName.slice(0, 8)}_${index}`,
      ...defined({ display_name: account.displayName, profile_image: account.profileImage }),
      hsg_score: account.hsgScore,
      ...defined({ stakeholder_categories: account.categories }),
      followers_count: account.followers,
    },
  };
}

/** An HTML error page titled `title`, padded with trace lines to about `bytes` bytes. */
export function longPage(status: number, title: string, bytes: number): StreamedAnswer {
  return {
    status,
    contentType: 'text/html',
    *parts() {
      const head = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<pre>\r\n`;
      const tail = '</pre>\r\n</body>\r\n</html>\r\n';
      yield head;
      const line = 'upstream: at proxy_pass (/etc/nginx/conf.d/analytics.conf)\r\n';
      const part = line.repeat(Math.ceil(partChars / line.length));
      for (let left = bytes - head.length - tail.length; left > 0; left -= part.length) {
        yield left >= part.length ? part : part.slice(0, left);
      }
      yield tail;
    },
  };
}
