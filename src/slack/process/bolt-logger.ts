import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../logger.ts';

const boltToPino: Record<LogLevel, string> = {
  [LogLevel.ERROR]: 'error',
  [LogLevel.WARN]: 'warn',
  [LogLevel.INFO]: 'info',
  [LogLevel.DEBUG]: 'debug',
};

function toBoltLevel(level: string): LogLevel {
  switch (level) {
    case 'trace':
    case 'debug':
      return LogLevel.DEBUG;
    case 'info':
      return LogLevel.INFO;
    case 'warn':
      return LogLevel.WARN;
    default:
      return LogLevel.ERROR;
  }
}

/** Slack token shapes; Bolt and the Web API client sometimes put request details in message strings. */
const slackTokenPattern = /\b(?:xox[a-z]|xapp)-[A-Za-z0-9-]+/g;

function describe(part: unknown): string {
  const text = typeof part === 'string' ? part : JSON.stringify(part);
  return (text ?? String(part)).replace(slackTokenPattern, '[redacted]');
}

function write(logger: Logger, level: 'debug' | 'info' | 'warn' | 'error', parts: unknown[]): void {
  if (!logger.isLevelEnabled(level)) return;
  const error = parts.find((part): part is Error => part instanceof Error);
  const text = parts
    .filter((part) => part !== error)
    .map(describe)
    .join(' ');
  if (error) logger[level]({ err: error }, text || error.message);
  else logger[level](text);
}

/**
 * The logger of every Web API client the app makes: without one, a client prints to the console
 * itself, past the redaction (a URL's credentials, a token in a message). Like Bolt's own, it says
 * nothing below info, where a client writes out every request it sends.
 */
export function webApiLogger(logger: Logger): BoltLogger {
  const adapter = boltLogger(logger);
  adapter.setName('web-api');
  if (adapter.getLevel() === LogLevel.DEBUG) adapter.setLevel(LogLevel.INFO);
  return adapter;
}

/**
 * `logger` naming the library that logs: as its component, or, where `logger` names its component
 * already (`startup`), under a key of its own, so no record carries two `component` keys.
 */
function libraryLogger(logger: Logger, name: string): Logger {
  return logger.child('component' in logger.bindings() ? { library: name } : { component: name });
}

/**
 * Bolt and the Web API client log through this adapter, so their records join ours in one pino
 * stream with the same redaction. Bolt passes several loose arguments; they become one message,
 * with an Error kept as `err` so its stack is structured.
 */
export function boltLogger(logger: Logger): BoltLogger {
  let child = logger.child(
    'component' in logger.bindings() ? { library: 'bolt' } : { component: 'bolt' },
  );
  return {
    debug: (...parts: unknown[]) => write(child, 'debug', parts),
    info: (...parts: unknown[]) => write(child, 'info', parts),
    warn: (...parts: unknown[]) => write(child, 'warn', parts),
    error: (...parts: unknown[]) => write(child, 'error', parts),
    setLevel: (level: LogLevel) => {
      child.level = boltToPino[level];
    },
    getLevel: () => toBoltLevel(child.level),
    setName: (name: string) => {
      const level = child.level;
      child = libraryLogger(logger, name);
      child.level = level;
    },
  };
}
