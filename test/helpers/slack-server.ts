import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeSlack } from './fake-slack.ts';

export interface SlackServer {
  readonly slack: FakeSlack;
  /** Base URL; the Web API is under `/api/`, response_urls anywhere else. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The fake Slack over real HTTP, for an app running in another process (where no `fetch` can be
 * injected): point SLACK_API_URL at `${url}/api/` and use `${url}/respond/...` as response_url.
 */
export async function startSlackServer(): Promise<SlackServer> {
  let slack: FakeSlack | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      // A call the fake refuses to answer (see FakeSlack.violations) gets a 500; close() fails.
      const response = await (slack as FakeSlack)
        .fetch(`${url}${req.url ?? '/'}`, {
          method: req.method ?? 'POST',
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
        })
        .catch((error: unknown) => new Response(String(error), { status: 500 }));
      res.writeHead(response.status, {
        'content-type': response.headers.get('content-type') ?? 'text/plain',
      });
      res.end(await response.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  slack = new FakeSlack({ apiUrl: `${url}/api/` });
  return {
    slack,
    url,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const violations = (slack as FakeSlack).violations;
      if (violations.length > 0)
        throw new Error(`unfaithful Slack calls: ${violations.join('; ')}`);
    },
  };
}
