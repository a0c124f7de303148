/**
 * Answers far larger than any honest one, for the faults that test a client's cap on what it
 * reads: a service that ignores `limit` (every ranked account, then made-up ones until the answer
 * holds the number of items asked for: 200,000 items are about 74 MB) and an error page with a
 * long trace. Bodies are generated as they are written, a part at a time, so the sandbox never
 * holds one whole however large it is.
 */
import { defined } from '../model/defined.ts';
import type { StreamedAnswer } from './answer.ts';
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
  const madeUp = items > influencers.length ? madeUpItems() : [];
  yield '{"influencers":[';
  // Items are joined once a part is long enough, so each part is one flat string to write; after
  // the first, a part starts with the comma that separates it from the one before.
  let pieces: string[] = [];
  let chars = 0;
  for (let index = 0; index < items; index += 1) {
    const ranked = influencers[index];
    const item = madeUp[index % madeUp.length];
    const json =
      ranked !== undefined
        ? JSON.stringify(ranked)
        : `{"symplurrank":${index + 1}${item?.beforeId}${index}${item?.beforeName}${index}${item?.rest}`;
    pieces.push(json);
    chars += json.length;
    if (chars >= partChars) {
      yield pieces.join(',');
      pieces = [''];
      chars = 0;
    }
  }
  yield `${pieces.join(',')}],${JSON.stringify(rest).slice(1)}`;
}

/** The JSON of an account's made-up item around its numbered id and name. */
interface MadeUpItem {
  readonly beforeId: string;
  readonly beforeName: string;
  readonly rest: string;
}

let madeUpCache: readonly MadeUpItem[] | undefined;

/**
 * Each account of the population as the JSON of a made-up item, built once: an item is then a
 * few concatenations, so a long answer costs the sandbox little more than writing it.
 */
function madeUpItems(): readonly MadeUpItem[] {
  madeUpCache ??= population.map((account) => {
    const user = JSON.stringify({
      ...defined({ display_name: account.displayName, profile_image: account.profileImage }),
      hsg_score: account.hsgScore,
      ...defined({ stakeholder_categories: account.categories }),
      followers_count: account.followers,
    });
    const name = JSON.stringify(`${account.screenName.slice(0, 8)}_`).slice(0, -1);
    return {
      beforeId:
        `,"hsg_score":${account.hsgScore},"mentions":0,"tweets":0,"retweets":0,"replies":0,` +
        `"impressions":0,"urls":0,"user":{"id":"${account.id}`,
      beforeName: `","screen_name":${name}`,
      rest: `",${user.slice(1)}}`,
    };
  });
  return madeUpCache;
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
