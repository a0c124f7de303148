/**
 * Which store failures mean "the store is not answering" rather than a fault of the statement: a
 * connection or a statement that timed out, a connection refused, reset or closed, a database
 * shutting down or out of connections, a SQLite file locked by another process past its busy
 * timeout. Those become `DigestStoreUnavailableError`, which people are told in words and
 * `/healthz` reports; anything else (a constraint, a bug in a statement) is left as it is.
 */
import { DigestStoreUnavailableError } from '../../errors.ts';

/** The timeouts an adapter applies, to say which one ran out. */
export interface StoreTimeouts {
  readonly connectTimeoutMs: number;
  /** How long the adapter waits for an answer to a statement. */
  readonly answerTimeoutMs: number;
}

const networkCodes: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
};

/** SQLSTATE codes (PostgreSQL) that say the server cannot serve now, whatever the statement. */
const serverStates: Readonly<Record<string, string>> = {
  '57014': 'a statement ran past its timeout',
  '57P01': 'the database is shutting down',
  '57P02': 'the database is restarting after a crash',
  '57P03': 'the database is not accepting connections yet',
  '53300': 'the database has no connection left',
  '53400': 'the database has no connection left',
};

/** The words for `error` when it means the store is not answering; undefined otherwise. */
export function unavailableReason(error: unknown, timeouts?: StoreTimeouts): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown; errcode?: unknown }).code;
  const message = error.message;
  if (message === 'Query read timeout') {
    return `no answer within ${timeouts?.answerTimeoutMs ?? '?'} ms`;
  }
  if (
    message === 'timeout exceeded when trying to connect' ||
    message.startsWith('Connection terminated due to connection timeout') ||
    message === 'timeout expired'
  ) {
    return `no connection within ${timeouts?.connectTimeoutMs ?? '?'} ms`;
  }
  if (typeof code === 'string') {
    const network = networkCodes[code];
    if (network !== undefined) return network;
    const state = serverStates[code];
    if (state !== undefined) return state;
    if (code.startsWith('08')) return 'the connection failed';
  }
  if (
    message.startsWith('Connection terminated') ||
    message.includes('is not queryable') ||
    message === 'Client was closed and is not queryable'
  ) {
    return 'the connection was closed';
  }
  const sqlite = (error as { errcode?: unknown }).errcode;
  if (sqlite === 5 || sqlite === 6) return 'the SQLite file stayed locked by another process';
  return undefined;
}

/** `error` as a `DigestStoreUnavailableError` when it means the store is not answering. */
export function asUnavailable(error: unknown, timeouts?: StoreTimeouts): unknown {
  if (error instanceof DigestStoreUnavailableError) return error;
  const reason = unavailableReason(error, timeouts);
  return reason === undefined ? error : new DigestStoreUnavailableError(reason, { cause: error });
}

/** Runs `work`, turning a failure that means the store is not answering into one that says so. */
export async function answering<T>(work: () => Promise<T>, timeouts?: StoreTimeouts): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asUnavailable(error, timeouts);
  }
}
