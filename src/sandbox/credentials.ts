/**
 * Who may call the sandbox and the access tokens it issued them. Clients are checked once at start,
 * so a misconfigured demo fails loudly instead of answering 401 to everyone.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../errors.ts';
import { type AccessPolicy, compileAccess, demoCatalogue } from './catalogue.ts';

export interface SandboxClientConfig {
  readonly id: string;
  readonly secret: string;
  /** Names/ids of predicates and groups this client may read; undefined = all in the catalogue. */
  readonly access?: readonly string[];
}

/** The credentials the zero-config demo uses. */
export const demoClient: SandboxClientConfig = { id: 'demo-client', secret: 'demo-secret' };

export interface Client {
  readonly id: string;
  readonly secret: string;
  readonly policy: AccessPolicy | undefined;
}

export interface IssuedToken {
  readonly clientId: string;
  readonly expiresAtMs: number;
}

/** @throws ConfigError listing every empty, duplicate or unknown entry at once. */
export function compileClients(configs: readonly SandboxClientConfig[]): Client[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const clients = configs.map((config, index) => {
    if (config.id === '' || config.secret === '') {
      problems.push(`clients[${index}]: id and secret must not be empty`);
    }
    if (ids.has(config.id)) problems.push(`clients[${index}]: duplicate client id ${config.id}`);
    ids.add(config.id);
    if (config.access === undefined)
      return { id: config.id, secret: config.secret, policy: undefined };
    const { policy, unknown } = compileAccess(config.access, demoCatalogue);
    for (const entry of unknown) {
      problems.push(`clients[${index}].access: ${entry} is not in the catalogue`);
    }
    return { id: config.id, secret: config.secret, policy };
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return clients;
}

/** Compares secrets in constant time: answer timing must not tell how much of one matched. */
export function findClient(
  clients: readonly Client[],
  credentials: { readonly id: string; readonly secret: string },
): Client | undefined {
  return clients.find(
    (candidate) =>
      candidate.id === credentials.id && sameSecret(candidate.secret, credentials.secret),
  );
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Opaque tokens, as the real service issues: a client cannot read its expiry from one. */
export class TokenStore {
  readonly #tokens = new Map<string, IssuedToken>();

  /** Forgets the expired tokens first, so a long-running sandbox does not grow. */
  issue(clientId: string, issuedAtMs: number, ttlSeconds: number): string {
    for (const [token, issued] of this.#tokens) {
      if (issued.expiresAtMs <= issuedAtMs) this.#tokens.delete(token);
    }
    const accessToken = randomBytes(24).toString('base64url');
    this.#tokens.set(accessToken, { clientId, expiresAtMs: issuedAtMs + ttlSeconds * 1000 });
    return accessToken;
  }

  get(token: string): IssuedToken | undefined {
    return this.#tokens.get(token);
  }

  revokeAll(): void {
    this.#tokens.clear();
  }
}
