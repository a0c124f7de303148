/**
 * How the app's process ends: on SIGTERM (Heroku's restarts and deploys), SIGINT, or an exception
 * nothing caught, the app drains what it owes people within the shutdown budget and exits; a
 * promise rejection nothing handled is logged and the app keeps serving.
 */
import type { Logger } from '../../logger.ts';

/** The part of `process` this module listens to; tests pass an EventEmitter. */
export interface ProcessEvents {
  on(event: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

export interface LifecycleOptions {
  readonly events: ProcessEvents;
  readonly logger: Logger;
  /** Stops accepting work and drains what is in flight. */
  readonly stop: () => Promise<void>;
  /** Ends the process: lets the logs go, then `process.exit(code)`. Called once. */
  readonly exit: (code: number) => void;
  /** Past this after the first signal the process exits whatever is still running. */
  readonly budgetMs: number;
}

/**
 * Installs the handlers; returns the shutdown it runs, for callers that decide to stop themselves.
 * Whatever happens to the log destination, the exit comes within `budgetMs`: the deadline does not
 * wait for the drain, and `exit` never waits on stdout for long.
 */
export function handleProcessEnd(options: LifecycleOptions): (reason: string) => void {
  const { logger } = options;
  let exiting = false;
  const shutdown = (reason: string, code: number) => {
    if (exiting) return;
    exiting = true;
    logger.info({ reason }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      options.exit(1);
    }, options.budgetMs);
    deadline.unref();
    options.stop().then(
      () => {
        clearTimeout(deadline);
        logger.info('stopped');
        options.exit(code);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        logger.error({ err: error }, 'shutdown failed');
        options.exit(1);
      },
    );
  };
  options.events.on('SIGTERM', () => shutdown('SIGTERM', 0));
  options.events.on('SIGINT', () => shutdown('SIGINT', 0));
  options.events.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception; draining and exiting');
    shutdown('uncaughtException', 1);
  });
  options.events.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection; still serving');
  });
  return (reason) => shutdown(reason, 0);
}
