/**
 * The Web API methods the app's code calls, found by reading src/: what the manifest's scopes and
 * the fake Slack's method table must cover.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url);

/** Slack's upload helper calls two Web API methods. */
const helperMethods: Readonly<Record<string, readonly string[]>> = {
  filesUploadV2: ['files.getUploadURLExternal', 'files.completeUploadExternal'],
  chatStream: ['chat.startStream', 'chat.appendStream', 'chat.stopStream'],
};

/**
 * Web API methods named anywhere in `source`: `<…client>.<family>[.<sub>].<method>(`,
 * `.apiCall('x.y')`, the upload helper, and Bolt's `say(` (chat.postMessage).
 */
export function webApiCallsIn(source: string): string[] {
  const methods = new Set<string>();
  for (const match of source.matchAll(/\b\w*[cC]lient\??\.((?:[a-z]\w*\.)+[a-zA-Z]\w*)\(/g)) {
    const method = match[1] ?? '';
    if (method.split('.')[0] === 'apiCall') continue;
    methods.add(method);
  }
  for (const match of source.matchAll(/\.apiCall\(\s*['"`]([\w.]+)['"`]/g))
    methods.add(match[1] ?? '');
  for (const [helper, called] of Object.entries(helperMethods)) {
    if (new RegExp(`\\.${helper}\\(`).test(source))
      for (const method of called) methods.add(method);
  }
  if (/\bsay\(/.test(source)) methods.add('chat.postMessage');
  return [...methods].sort();
}

/** Web API methods called anywhere in the runtime code (src/, the composition root included). */
export function webApiCallsInSource(): string[] {
  const dir = new URL('src/', root).pathname;
  const methods = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true }) as string[]) {
    if (!file.endsWith('.ts')) continue;
    for (const method of webApiCallsIn(readFileSync(join(dir, file), 'utf8'))) methods.add(method);
  }
  return [...methods].sort();
}
