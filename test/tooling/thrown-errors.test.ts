/**
 * Every error src/ throws is an AppError with a code, or says why not: a `throw new Error(` and a
 * class that extends a built-in error without passing through AppError each need a
 * `// Not an AppError: <why>` comment just above them (or at the end of their line).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = new URL('../../src/', import.meta.url).pathname;

const builtInErrors = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
]);
const reason = /Not an AppError: \S/;
const bareThrow = /\bthrow new Error\(/;
const classDeclaration = /\bclass\s+(\w+)\s+extends\s+(\w+)/;

interface Source {
  readonly path: string;
  readonly text: string;
}

interface Site {
  readonly where: string;
  readonly explained: boolean;
}

/** True when the comment lines right above line `at`, or a comment ending it, give the reason. */
function explained(lines: readonly string[], at: number): boolean {
  if (reason.test(lines[at]?.split('//').slice(1).join('//') ?? '')) return true;
  for (let i = at - 1; i >= 0; i--) {
    const line = (lines[i] ?? '').trim();
    if (!/^(\/\/|\/\*|\*)/.test(line)) return false;
    if (reason.test(line)) return true;
  }
  return false;
}

/** Every `throw new Error(` and every error class outside the AppError hierarchy. */
function scan(sources: readonly Source[]): { throws: Site[]; classes: Site[]; appErrors: number } {
  const throws: Site[] = [];
  const declared: { name: string; base: string; site: Site }[] = [];
  for (const { path, text } of sources) {
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      const where = `${path}:${index + 1}`;
      if (bareThrow.test(line)) throws.push({ where, explained: explained(lines, index) });
      const declaration = classDeclaration.exec(line);
      if (declaration?.[1] !== undefined && declaration[2] !== undefined) {
        const site = { where, explained: explained(lines, index) };
        declared.push({ name: declaration[1], base: declaration[2], site });
      }
    });
  }
  const bases = new Map(declared.map(({ name, base }) => [name, base]));
  /** The chain of bases from `name` up to a class src/ does not declare. */
  const chain = (name: string): string[] => {
    const seen = [name];
    for (let base = bases.get(name); base !== undefined; base = bases.get(base)) {
      seen.push(base);
      if (seen.length > 50) break;
    }
    return seen;
  };
  const errorClasses = declared.filter(
    ({ name }) => name !== 'AppError' && builtInErrors.has(chain(name).at(-1) ?? ''),
  );
  const outside = errorClasses.filter(({ name }) => !chain(name).includes('AppError'));
  return {
    throws,
    classes: outside.map(({ site }) => site),
    appErrors: errorClasses.length - outside.length,
  };
}

function sourcesUnder(dir: string): Source[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => ({ path: `src/${file}`, text: readFileSync(join(dir, file), 'utf8') }));
}

const unexplained = (sites: readonly Site[]) =>
  sites.filter((site) => !site.explained).map((site) => site.where);

describe('errors thrown in src/', () => {
  const found = scan(sourcesUnder(src));

  it('are AppErrors, or a comment says why not', () => {
    expect(unexplained(found.throws)).toEqual([]);
    expect(unexplained(found.classes)).toEqual([]);
  });

  it('were found at all: the scan read the hierarchy and the exceptions to it', () => {
    expect(found.appErrors).toBeGreaterThan(20);
    expect(found.throws.length).toBeGreaterThan(0);
    expect(found.classes.length).toBeGreaterThan(0);
  });
});

describe('the scan', () => {
  const probe = (text: string) => scan([{ path: 'probe.ts', text }]);

  it('flags a bare throw and an error class outside the hierarchy', () => {
    const found = probe(
      [
        'class AppError extends Error {}',
        'class KnownError extends AppError {}',
        'class LooseError extends Error {}',
        'class LooserError extends LooseError {}',
        'class NotAnError extends Map {}',
        '/** Says what, not why not. */',
        'export function f() {',
        "  throw new Error('bare');",
        '}',
      ].join('\n'),
    );
    expect(unexplained(found.throws)).toEqual(['probe.ts:8']);
    expect(unexplained(found.classes)).toEqual(['probe.ts:3', 'probe.ts:4']);
    expect(found.appErrors).toBe(1);
  });

  it('accepts the reason in the comments just above, or at the end of the line', () => {
    const found = probe(
      [
        '/** A signal between two parts. */',
        '// Not an AppError: caught right where it is thrown.',
        'class SignalError extends Error {}',
        'function f() {',
        '  // Not an AppError: an invariant; a bug if broken.',
        "  if (x) throw new Error('never');",
        "  throw new Error('never either'); // Not an AppError: an invariant too.",
        "  throw new Error('Not an AppError: in the message is no reason');",
        '}',
      ].join('\n'),
    );
    expect(unexplained(found.throws)).toEqual(['probe.ts:8']);
    expect(unexplained(found.classes)).toEqual([]);
  });
});
