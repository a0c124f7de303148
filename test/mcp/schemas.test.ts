import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listOrText, numberOrText, oneTypeEach, singleTypes } from '../../src/mcp/schemas.ts';

describe('singleTypes', () => {
  it('writes a type array as an anyOf of single types, the value’s keywords with its type', () => {
    expect(
      singleTypes({
        type: 'object',
        properties: {
          rank: { type: ['number', 'null'], description: 'Earlier rank.', minimum: 1 },
          id: { type: ['string', 'number'] },
          name: { type: ['string'] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        rank: {
          description: 'Earlier rank.',
          anyOf: [{ type: 'number', minimum: 1 }, { type: 'null' }],
        },
        id: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        name: { type: 'string' },
      },
    });
  });
});

describe('oneTypeEach', () => {
  it('advertises 2020-12 with one type per schema, and validates as zod does', () => {
    const schema = oneTypeEach(z.object({ previous: z.number().nullable(), top: numberOrText }));
    const json = schema['~standard'].jsonSchema.output({ target: 'draft-2020-12' });
    expect(json.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(JSON.stringify(json)).not.toMatch(/"type":\[/);
    expect(schema['~standard'].validate({ previous: null, top: '20' })).toEqual({
      value: { previous: null, top: 20 },
    });
  });
});

describe('loose inputs', () => {
  it.each([
    ['#hcsm', '#hcsm'],
    [['#hcsm', '#bcsm'], '#hcsm, #bcsm'],
    [4711, '4711'],
  ])('takes %j as the text %j', (input, text) => {
    expect(listOrText.parse(input)).toBe(text);
  });

  it.each([
    [5, 5],
    ['20', 20],
    ['top 20', 20],
  ])('takes %j as the number %j', (input, number) => {
    expect(numberOrText.parse(input)).toBe(number);
  });

  it('refuses words that are no number', () => {
    expect(numberOrText.safeParse('a few').success).toBe(false);
  });
});
