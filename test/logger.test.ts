import { describe, expect, it } from 'vitest';
import { serializeError } from '../src/logger.ts';

describe('serializeError', () => {
  it('drops the client, connection or socket a library hangs on an error, keeping its code', () => {
    const error = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      client: { connectionParameters: { user: 'app', password: 'hunter2' } },
      connection: { stream: {} },
      socket: { readable: true },
    });
    const serialized = JSON.stringify(serializeError(error));
    expect(serialized).toContain('"code":"57P01"');
    expect(serialized).not.toMatch(/client|connectionParameters|hunter2|stream|readable/);
  });
});
