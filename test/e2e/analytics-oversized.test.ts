/**
 * A service that ignores `limit` and answers 200,000 rows (about 74 MB), over signed HTTP against
 * the app with the sandbox behind it and Slack faked: the person is told in words, and valid
 * commands sent meanwhile are acked and answered as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxAnswerBytes } from '../../src/analytics/transport.ts';
import { ResponseTooLargeError } from '../../src/errors.ts';
import { errorText } from '../../src/render/errors.ts';
import { demoClient } from '../../src/sandbox/server.ts';
import { botToken, type Harness, startHarness } from '../helpers/harness.ts';
import { expectedAnswer, finalResponse, now, request } from '../helpers/lookups.ts';
import { slashCommand } from '../helpers/payloads.ts';

/** Valid commands, answered once before so that meanwhile they come from the response cache. */
const valid = ['#bcsm yesterday', '#hcsm yesterday top 5', '#bcsm past 48 hours'];
/** Commands the service answers with 200,000 rows; asked before with another `top`, see below. */
const oversized = ['#hcsm last week', '#bcsm last week'];

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    env: { LOOKUP_TIMEOUT_MS: '10000' },
    sandbox: { now },
    overrides: { now },
  });
  // The token and the valid commands' answers: with them cached, every request the service sees
  // below is one of the oversized lookups, whatever order the lookups run in. The oversized
  // windows asked with another `top` are not cached answers, but the sandbox, which runs in this
  // process, has ranked them already and spends its time below on writing only.
  for (const text of [...valid, ...oversized.map((window) => `${window} top 3`)]) {
    const warmup = slashCommand({ text });
    await h.send(warmup);
    await finalResponse(h, warmup.responseUrl);
  }
});

afterAll(async () => {
  await h?.close();
});

const dataRequests = () => h.sandbox.log.filter((record) => record.endpoint === 'data').length;

describe('a service that ignores limit and answers 200,000 rows', () => {
  it('tells the person, and acks valid commands sent meanwhile within 1 s', async () => {
    h.sandbox.script(...oversized.map(() => ({ kind: 'ignores-limit', items: 200_000 }) as const));
    const before = dataRequests();
    const refused = oversized.map((text) => slashCommand({ text }));
    const refusedAcks = refused.map((command) => h.send(command));
    const told = refused.map((command) => finalResponse(h, command.responseUrl));
    let pending = refused.length;
    const settled = () => {
      pending -= 1;
    };
    for (const answer of told) answer.then(settled, settled);

    // Valid commands one after another for as long as an oversized lookup is unanswered.
    const acked: { text: string; url: string; ms: number }[] = [];
    for (let index = 0; pending > 0 && index < 100; index += 1) {
      const text = valid[index % valid.length] ?? '';
      const command = slashCommand({ text });
      const ack = await h.send(command);
      expect(ack.status).toBe(200);
      acked.push({ text, url: command.responseUrl, ms: ack.ms });
    }
    console.log('DBG', JSON.stringify(acked.map((a) => Math.round(a.ms))));
    for (const ack of await Promise.all(refusedAcks)) expect(ack.status).toBe(200);
    expect(acked.length).toBeGreaterThan(0);
    for (const { ms } of acked) expect(ms).toBeLessThan(1_000);

    const words = errorText(
      new ResponseTooLargeError({ status: 200, capBytes: maxAnswerBytes, bytesRead: 0 }),
    );
    expect(words).toContain('far larger than any ranking (over 4 MB)');
    for (const answer of await Promise.all(told)) {
      expect(answer.args.text).toBe(words);
      expect(answer.args.replace_original).toBe(true);
    }
    expect(dataRequests()).toBe(before + oversized.length);

    for (const { text, url } of acked) {
      const answer = await finalResponse(h, url);
      expect({ text: answer.args.text, blocks: answer.args.blocks }).toEqual(
        await expectedAnswer(h, request(text), { shareable: true }),
      );
    }

    const capped = h.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.msg === 'analytics answer over the size cap; stopped reading it');
    expect(capped).toHaveLength(oversized.length);
    for (const record of capped) {
      expect(record).toMatchObject({
        path: '/v1/twitter/analytics/people/influencers',
        capBytes: maxAnswerBytes,
      });
      expect(record.bytesRead).toBeLessThan(maxAnswerBytes + 1024 * 1024);
    }
    const logs = h.logs.join('\n');
    expect(logs).not.toContain(botToken);
    expect(logs).not.toContain(demoClient.secret);
    expect(logs).not.toMatch(/Bearer [A-Za-z0-9]/);
  });
});
