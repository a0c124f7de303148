import { describe, expect, it } from 'vitest';

describe('test setup', () => {
  it('runs under a non-UTC zone', () => {
    expect(process.env.TZ).toBe('Europe/Paris');
    expect(new Date('2026-07-01T00:00:00Z').getTimezoneOffset()).toBe(-120);
  });
});
