import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

interface Fetcher {
  readonly minimum: { readonly major: number; readonly minor: number };
  readonly builds: Record<string, { name: string; version: string; integrity: string }>;
  supported(version: string): boolean;
  integrityOf(bytes: Uint8Array): string;
}

/** The postinstall that gives an older Node's machine a Node 24 for the npm scripts. */
const fetcher = (await import(join(root, '.ci', 'node24.mjs'))) as Fetcher;

/** Every package `src/` loads: static and dynamic imports, and pino transport targets. */
function packagesLoadedBySrc(): Set<string> {
  const files = (readdirSync(join(root, 'src'), { recursive: true }) as string[]).filter((file) =>
    file.endsWith('.ts'),
  );
  const names = new Set<string>();
  const specifier =
    /(?:\bfrom\s+|\bimport\(\s*|\btarget:\s*)'(?!\.)((?:@[\w.-]+\/)?[\w.-]+(?:\/[\w./-]*)?)'/g;
  for (const file of files) {
    for (const [, spec] of readFileSync(join(root, 'src', file), 'utf8').matchAll(specifier)) {
      if (spec === undefined || spec.startsWith('node:')) continue;
      const parts = spec.split('/');
      names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec));
    }
  }
  return names;
}

describe('a production install', () => {
  it('has every package the app loads among the dependencies, none only among devDependencies', () => {
    const loaded = [...packagesLoadedBySrc()];
    expect(loaded.length).toBeGreaterThan(5);
    expect(loaded.filter((name) => pkg.dependencies[name] === undefined)).toEqual([]);
  });

  it('downloads no Node binary: the fetcher is a postinstall script, not a dependency', () => {
    expect(pkg.devDependencies.node).toBeUndefined();
    expect(pkg.dependencies.node).toBeUndefined();
    expect(pkg.scripts.postinstall).toBe('node .ci/node24.mjs');
  });
});

describe('engines and the Node 24 fetcher', () => {
  it('requires the 24.x releases from 24.12, where type stripping is stable', () => {
    expect(pkg.engines.node).toBe(
      `>=${fetcher.minimum.major}.${fetcher.minimum.minor} <${fetcher.minimum.major + 1}`,
    );
    expect(
      ['v20.20.2', '24.1.0', '24.11.1', '24.12.0', 'v24.21.0', '25.0.0'].map(fetcher.supported),
    ).toEqual([false, false, false, true, true, false]);
  });

  it('pins, for each platform, a supported version and the registry integrity of its tarball', () => {
    for (const build of Object.values(fetcher.builds)) {
      expect(fetcher.supported(build.version)).toBe(true);
      expect(build.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
    expect(fetcher.integrityOf(new TextEncoder().encode('abc'))).toBe(
      'sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==',
    );
  });
});

/** The machine's own Node, as a newcomer's shell finds it (not the one npm scripts are given). */
const systemPath = '/usr/local/bin:/usr/bin:/bin';
const systemNode = (() => {
  try {
    return execFileSync('node', ['--version'], {
      env: { PATH: systemPath },
      encoding: 'utf8',
    }).trim();
  } catch {
    return undefined;
  }
})();
const olderNode = systemNode !== undefined && !fetcher.supported(systemNode);
if (!olderNode)
  console.warn(`No Node older than 24 on ${systemPath}: the first-screen check skips`);

describe('npm install on a machine with an older Node', () => {
  it.skipIf(!olderNode)('shows no engine warnings before the fetcher says what it does', () => {
    const npm = spawnSync(
      'npm',
      ['install', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      { cwd: root, env: { PATH: systemPath, HOME: process.env.HOME ?? root }, encoding: 'utf8' },
    );
    expect(npm.status).toBe(0);
    // npm writes its warnings to stderr: the screen is both streams.
    const screen = `${npm.stdout}${npm.stderr}`;
    expect(screen).not.toContain('EBADENGINE');
    expect(screen).not.toMatch(/npm warn/);
  });
});
