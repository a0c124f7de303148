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
  return pino(base);
}

/** A logger that drops everything: the default for library code that was given none. */
export const silentLogger: Logger = pino({ level: 'silent' });
