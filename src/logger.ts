import pino from 'pino';

/**
 * Paths pino blanks wherever they appear in a log record. Secrets must also never be put in a
 * message string; this list is the net under that rule.
 */
export const redactedPaths = [
  'authorization',
  'Authorization',
  '*.authorization',
  '*.Authorization',
  'headers.authorization',
  '*.headers.authorization',
  'clientSecret',
  '*.clientSecret',
  'client_secret',
  '*.client_secret',
  'accessToken',
  '*.accessToken',
  'access_token',
  '*.access_token',
  'token',
  '*.token',
  'botToken',
  '*.botToken',
  'appToken',
  '*.appToken',
  'signingSecret',
  '*.signingSecret',
  'password',
  '*.password',
];

export type Logger = pino.Logger;

/** `scheme://user:password@`: the part of a URL that must never be printed. */
const userinfo = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]*@/gi;

/**
 * `text` with the user and password removed from every URL in it (`https://u:p@host/` becomes
 * `https://host/`): a base URL may carry credentials for a proxy, and any message that names the
 * URL would print them.
 */
export function withoutUserinfo(text: string): string {
  return text.includes('@') ? text.replace(userinfo, '$1') : text;
}

/** What of an error the logs keep beside its type, message and stack (see {@link serializeError}). */
const slackPayloadKeys = ['data', 'body', 'headers'];

/**
 * Objects some libraries hang on their errors (pg-pool: the whole `client`, with its connection
 * parameters and sockets): never data worth a log line, and sometimes credentials.
 */
const attachedObjectKeys = ['client', 'connection', 'socket'];

/**
 * pino's error serializer, then: Slack Web API errors lose their payloads (`data`, `body`,
 * `headers`: Slack's whole answer, which can echo what was sent) and keep Slack's error string as
 * `slackError`; every message and stack, nested ones included, loses URL credentials.
 */
export function serializeError(error: unknown): unknown {
  const serialized: unknown = pino.stdSerializers.err(error as Error);
  return clean(serialized, 0);
}

function clean(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > 3) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.code === 'string' && record.code.startsWith('slack_webapi_')) {
    const data = record.data as { error?: unknown } | undefined;
    if (typeof data?.error === 'string') record.slackError = data.error;
    for (const key of slackPayloadKeys) delete record[key];
  }
  for (const key of attachedObjectKeys) {
    if (typeof record[key] === 'object') delete record[key];
  }
  for (const [key, field] of Object.entries(record)) {
    if (typeof field === 'string' && (key === 'message' || key === 'stack')) {
      record[key] = withoutUserinfo(field);
    } else if (typeof field === 'object') {
      clean(field, depth + 1);
    }
  }
  return record;
}

export interface LoggerOptions {
  readonly level?: string;
  /** Where records go; defaults to stdout. Tests pass a stream to read what was logged. */
  readonly destination?: pino.DestinationStream;
}

/**
 * Log bytes held in memory while stdout does not take them (a full pipe nobody reads); past this,
 * new lines are dropped rather than let memory grow.
 */
const maxPendingLogBytes = 4 * 1024 * 1024;

/** The stdout destinations this module made, which {@link releaseLogs} may let go of. */
const stdoutStreams = new WeakMap<Logger, pino.DestinationStream & SonicBoomLike>();

interface SonicBoomLike {
  flush(callback: (error?: Error) => void): void;
  destroy(): void;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const base: pino.LoggerOptions = {
    level: options.level ?? 'info',
    redact: { paths: redactedPaths, censor: '[redacted]' },
    base: { app: 'hcsm-slack-influencers' },
    serializers: { err: serializeError },
    hooks: {
      // Messages are written by many hands (ours, Bolt's, the Web API client's): none prints a
      // URL's credentials.
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? withoutUserinfo(arg) : arg)) as typeof args,
        );
      },
    },
  };
  if (options.destination) return pino(base, options.destination);
  // Asynchronous, so a slow or stuck reader of stdout never blocks the event loop. Every line is
  // written at once all the same; a minLength above 0 only makes flush(cb) wait for the writes.
  const stdout = pino.destination({
    dest: 1,
    sync: false,
    minLength: 1,
    maxLength: maxPendingLogBytes,
  });
  const logger = pino(base, stdout);
  stdoutStreams.set(logger, stdout as unknown as pino.DestinationStream & SonicBoomLike);
  return logger;
}

/**
 * Writes what the logger still holds within `withinMs`, then lets go of stdout so that the process
 * can exit even when nobody reads its logs: pino would otherwise retry a full pipe at exit forever.
 * Call it last, just before `process.exit`: the logger writes nothing after it.
 */
export async function releaseLogs(logger: Logger, withinMs: number): Promise<void> {
  const stream = stdoutStreams.get(logger);
  if (stream === undefined) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, withinMs);
    stream.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
  stream.destroy();
}

/** A logger that drops everything: the default for library code that was given none. */
export const silentLogger: Logger = pino({ level: 'silent' });
