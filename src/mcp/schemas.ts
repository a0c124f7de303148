/**
 * The tools' schemas as clients read them: JSON Schema 2020-12 with one `type` per schema. Zod
 * writes a nullable or a union of scalars as a type array (`["number","null"]`), which some MCP
 * clients cannot read; here each such array becomes an `anyOf` of single types. Inputs a model
 * may fill loosely (a list where a string is asked, "20" for 20) are declared with the one type
 * and still taken in the other shape.
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** `schema` with every `type: [a, b]` written as `anyOf: [{ type: a }, { type: b }]`, recursively. */
export function singleTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(singleTypes);
  if (typeof schema !== 'object' || schema === null) return schema;
  const entries = Object.entries(schema as Record<string, unknown>).map(
    ([key, value]): [string, unknown] => [key, key === 'type' ? value : singleTypes(value)],
  );
  const { type, ...rest } = Object.fromEntries(entries);
  if (!Array.isArray(type)) return type === undefined ? rest : { type, ...rest };
  if (type.length === 1) return { type: type[0], ...rest };
  const nullable = type.includes('null');
  const others = type.filter((name) => name !== 'null');
  // The keywords that describe the value (enum, minimum, items...) go with its non-null type.
  const { description, title, default: fallback, ...keywords } = rest;
  const branches = [
    ...others.map((name) => ({ type: name, ...(others.length === 1 ? keywords : {}) })),
    ...(nullable ? [{ type: 'null' }] : []),
  ];
  return {
    ...(description === undefined ? {} : { description }),
    ...(title === undefined ? {} : { title }),
    ...(fallback === undefined ? {} : { default: fallback }),
    anyOf: branches,
  };
}

/** A zod schema whose advertised JSON Schema has one type per schema; validation is zod's own. */
export function oneTypeEach<T extends z.ZodType>(
  schema: T,
): StandardSchemaWithJSON<z.input<T>, z.output<T>> {
  const standard = schema['~standard'];
  return {
    '~standard': {
      ...standard,
      jsonSchema: {
        input: (options) =>
          singleTypes(standard.jsonSchema.input(options)) as Record<string, unknown>,
        output: (options) =>
          singleTypes(standard.jsonSchema.output(options)) as Record<string, unknown>,
      },
    },
  };
}

/** A string; a list of strings or numbers is taken too, joined with commas, and a number as text. */
export const listOrText = z.preprocess((value) => {
  if (typeof value === 'number') return String(value);
  if (!Array.isArray(value)) return value;
  return value.every((item) => typeof item === 'string' || typeof item === 'number')
    ? value.join(', ')
    : value;
}, z.string());

/** A number; its digits as text are taken too (`"20"`, `"top 20"`). */
export const numberOrText = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const digits = /^\s*(?:top\s+)?(\d+)\s*$/i.exec(value)?.[1];
  return digits === undefined ? value : Number(digits);
}, z.number());
