import { describe, expect, it } from 'vitest';
import { readArguments } from '../../src/cli/command.ts';
import { ConfigError } from '../../src/errors.ts';
import { zoneArgument } from '../../src/main.ts';

const options = { sqlite: { type: 'string' }, jsonl: { type: 'boolean' } } as const;

function read(args: readonly string[], allowPositionals = false) {
  return readArguments({ args: [...args], options, strict: true, allowPositionals });
}

describe('readArguments', () => {
  it('reads --flag value and --flag=value alike', () => {
    for (const args of [['--sqlite', '/tmp/x'], ['--sqlite=/tmp/x']]) {
      expect(read(args)).toEqual({ values: { sqlite: '/tmp/x' }, positionals: [] });
    }
  });

  it.each([
    [['--port', '1'], 'Unknown argument "--port".'],
    [['-x'], 'Unknown argument "-x".'],
    [['stray'], 'Unknown argument "stray".'],
    [['--sqlite'], '--sqlite needs a value.'],
    [['--sqlite', '--jsonl'], '--sqlite needs a value.'],
    [['--jsonl=yes'], '--jsonl takes no value.'],
  ])('refuses %j with %j', (args, message) => {
    expect(read(args)).toBe(message);
  });

  it('keeps positionals when the command takes them, and everything after --', () => {
    expect(read(['--jsonl', 'a', '--', '-b'], true)).toEqual({
      values: { jsonl: true },
      positionals: ['a', '-b'],
    });
  });
});

describe('zoneArgument', () => {
  it('refuses anything but --tz, naming the argument', () => {
    expect(() => zoneArgument(['--zone', 'UTC'])).toThrow(ConfigError);
    try {
      zoneArgument(['--tz']);
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        '--tz needs a value. The console takes only --tz <zone>.',
      ]);
      return;
    }
    expect.unreachable();
  });
});
