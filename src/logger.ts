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

export interface LoggerOptions {
  readonly level?: string;
  /** Human-readable lines (console mode) instead of JSON. */
  readonly pretty?: boolean;
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
  };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty) {
    return pino({
      ...base,
      transport: {
        target: 'pino-pretty',
        options: { destination: 2, colorize: false, translateTime: 'SYS:HH:MM:ss' },
      },
    });
  }
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
