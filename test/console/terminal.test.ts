import { createInterface } from 'node:readline';
import { PassThrough, Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.ts';
import { runConsole } from '../../src/console/console.ts';
import { Screen } from '../../src/console/screen.ts';
import { consoleLogLine, leaveConfirmText } from '../../src/render/console.ts';

/** A keyboard and a screen, as a terminal gives them to the console. */
function terminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
  let written = '';
  const output = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        written += String(chunk);
        done();
      },
    }),
    { isTTY: true, columns: 100, rows: 40 },
  );
  return {
    input,
    output,
    /** What the screen shows, control sequences removed. */
    text: () => stripVTControlCharacters(written),
    raw: () => written,
    type: (keys: string) => input.write(keys),
  };
}

async function until(probe: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the console');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ctrlC = '\u0003';
let running: Promise<number> | undefined;
let keyboard: ReturnType<typeof terminal> | undefined;

function start() {
  keyboard = terminal();
  const config = loadConfig({ DIGESTS_ENABLED: 'false' });
  if (config.mode !== 'console') throw new Error('expected the console');
  running = runConsole(config, {
    input: keyboard.input,
    output: keyboard.output,
    zone: 'Europe/Paris',
  });
  return keyboard;
}

afterEach(async () => {
  keyboard?.input.end();
  await running;
  running = undefined;
});

describe('the console in a terminal', () => {
  it('clears a typed line on Ctrl-C, as a shell does', async () => {
    const screen = start();
    await until(() => screen.text().includes('> '));
    screen.type('#hcsm la');
    screen.type(ctrlC);
    screen.type('help\r');
    await until(() => screen.text().includes('Console commands'));
    expect(screen.text()).not.toContain('Looking up');
  });

  it('asks once more on Ctrl-C at an empty prompt, naming the digests that would be lost, then leaves', async () => {
    const screen = start();
    await until(() => screen.text().includes('> '));
    screen.type('/influencers digest #hcsm every monday at 9am\r');
    await until(() => /Digest [0-9A-Z]{6} created/.test(screen.text()));
    screen.type(ctrlC);
    await until(() => screen.text().includes(leaveConfirmText(1)));
    screen.type(ctrlC);
    expect(await running).toBe(0);
  });

  it('asks again after a line was entered between two Ctrl-C', async () => {
    const screen = start();
    await until(() => screen.text().includes('> '));
    screen.type(ctrlC);
    await until(() => screen.text().includes(leaveConfirmText(0)));
    screen.type('help\r');
    await until(() => screen.text().includes('Console commands'));
    screen.type(ctrlC);
    await until(() => screen.text().split(leaveConfirmText(0)).length === 3);
    screen.type('exit\r');
    expect(await running).toBe(0);
  });

  it('clears the screen on clear', async () => {
    const screen = start();
    await until(() => screen.text().includes('> '));
    screen.type('clear\r');
    await until(() => screen.raw().includes('\u001b[2J'));
  });
});

describe('Screen', () => {
  it('prints a line above the prompt and redraws the half-typed line under it', async () => {
    const term = terminal();
    const lines = createInterface({ input: term.input, output: term.output, terminal: true });
    const screen = new Screen(term.output, true);
    screen.attach(lines);
    screen.prompt();
    term.type('#hcsm yest');
    await until(() => term.text().endsWith('> #hcsm yest'));
    screen.print('[warning] digest tick failed: the analytics service is unavailable');
    expect(
      term
        .text()
        .endsWith(
          '[warning] digest tick failed: the analytics service is unavailable\n> #hcsm yest',
        ),
    ).toBe(true);
    lines.close();
  });
});

describe('consoleLogLine', () => {
  it('gives a log record one line, with the error message and without a stack', () => {
    expect(
      consoleLogLine({
        level: 40,
        msg: 'digest tick failed',
        err: { message: 'database is locked\n    at run (store.ts:1)' },
      }),
    ).toBe('[warning] digest tick failed: database is locked');
  });
});
