import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.ts';
import { handleProcessEnd } from '../../../src/slack/process/lifecycle.ts';

function setup(stop: () => Promise<void> = async () => {}) {
  const events = new EventEmitter();
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const exits: number[] = [];
  let stops = 0;
  const exited = new Promise<number>((resolve) => {
    handleProcessEnd({
      events,
      logger: createLogger({ destination }),
      stop: () => {
        stops += 1;
        return stop();
      },
      exit: (code) => {
        exits.push(code);
        resolve(code);
      },
      budgetMs: 500,
    });
  });
  return { events, lines, exits, exited, stops: () => stops };
}

describe('handleProcessEnd', () => {
  it('drains and exits 0 on SIGTERM, once however many signals come', async () => {
    const proc = setup();
    proc.events.emit('SIGTERM');
    proc.events.emit('SIGINT');
    expect(await proc.exited).toBe(0);
    expect(proc.stops()).toBe(1);
    expect(proc.lines.map((line) => line.msg)).toEqual(['shutting down', 'stopped']);
  });

  it('logs an uncaught exception, then drains like SIGTERM and exits 1', async () => {
    const proc = setup();
    proc.events.emit('uncaughtException', new Error('boom'));
    expect(await proc.exited).toBe(1);
    expect(proc.stops()).toBe(1);
    expect(proc.lines[0]).toMatchObject({
      level: 60,
      msg: 'uncaught exception; draining and exiting',
      err: { message: 'boom' },
    });
  });

  it('logs an unhandled rejection and keeps serving', async () => {
    const proc = setup();
    proc.events.emit('unhandledRejection', new Error('lost'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(proc.stops()).toBe(0);
    expect(proc.exits).toEqual([]);
    expect(proc.lines[0]).toMatchObject({ level: 50, err: { message: 'lost' } });
  });

  it('exits 1 when the drain outlasts the budget', async () => {
    const proc = setup(() => new Promise(() => {}));
    proc.events.emit('SIGTERM');
    expect(await proc.exited).toBe(1);
    expect(proc.lines.at(-1)?.msg).toBe('shutdown took too long; exiting');
  });
});
