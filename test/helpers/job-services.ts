import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { type SlackServer, startSlackServer } from './slack-server.ts';

/** What a test of a spawned process (the CLI, the app) talks to: set in beforeAll. */
export interface JobServices {
  /** A temporary folder for SQLite files, removed after the file's tests. */
  readonly dir: string;
  readonly sandbox: Sandbox;
  readonly slack: SlackServer;
}

/** A temporary folder, a sandbox and a fake Slack Web API for one test file, closed after it. */
export function useJobServices(prefix: string): JobServices {
  const services = {} as { dir: string; sandbox: Sandbox; slack: SlackServer };
  beforeAll(async () => {
    services.dir = mkdtempSync(join(tmpdir(), prefix));
    services.sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    services.slack = await startSlackServer();
  });
  afterAll(async () => {
    await services.sandbox?.close();
    await services.slack?.close();
    if (services.dir) rmSync(services.dir, { recursive: true, force: true });
  });
  return services;
}
