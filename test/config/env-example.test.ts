import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.ts';

const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');

describe('.env.example', () => {
  it('sets nothing as shipped, so a copy of it starts the local console', () => {
    expect(parseEnv(example)).toEqual({});
    expect(loadConfig(parseEnv(example)).mode).toBe('console');
  });

  it('gives a valid HTTP configuration once its Slack and analytics lines are uncommented', () => {
    const uncommented = example.replace(
      /^# ((SLACK_BOT_TOKEN|SLACK_SIGNING_SECRET|ANALYTICS_[A-Z_]+)=)/gm,
      '$1',
    );
    expect(loadConfig(parseEnv(uncommented)).mode).toBe('http');
  });
});
