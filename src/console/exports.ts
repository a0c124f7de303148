/**
 * Where the console puts a CSV export and a digest's canvas: a file under `./exports/` of the directory it runs in, as
 * Slack would put it in the person's DM. Names come from the query (databases, window, zone), so
 * characters a file system refuses are replaced, and a file already there is never overwritten.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The folder, relative to the working directory, that console exports go into. */
export const exportsFolder = 'exports';

/** Longest file name most file systems accept, in bytes, with room for a ` (2)` suffix. */
const maxNameBytes = 240;

/** `name` made safe as one file name on Linux, macOS and Windows. */
export function safeFileName(name: string): string {
  const safe = name
    .replace(/[/\\:*?"<>|\p{Cc}]/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  if (safe === '') return 'export.csv';
  const extension = /\.[a-z0-9]{1,8}$/i.exec(safe)?.[0] ?? '';
  let stem = safe.slice(0, safe.length - extension.length);
  while (Buffer.byteLength(stem + extension) > maxNameBytes) stem = [...stem].slice(0, -1).join('');
  return stem + extension;
}

/**
 * Writes `file` under `<cwd>/exports/` and resolves with its path as a person would type it
 * (`exports/…`), adding ` (2)`, ` (3)`… before the extension rather than replacing a file.
 */
export async function saveExport(
  file: { readonly filename: string; readonly content: string },
  cwd: string = process.cwd(),
): Promise<string> {
  await mkdir(join(cwd, exportsFolder), { recursive: true });
  const name = safeFileName(file.filename);
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let copy = 1; ; copy++) {
    const candidate = copy === 1 ? name : `${stem} (${copy})${extension}`;
    try {
      await writeFile(join(cwd, exportsFolder, candidate), file.content, { flag: 'wx' });
      return `${exportsFolder}/${candidate}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Writes a canvas under `<cwd>/exports/` and resolves with its path as a person would type it.
 * With `path` (what an earlier write of that canvas resolved with) it replaces that file, as Slack
 * replaces a canvas's document. A new canvas of `channelId` is `canvas-<channel>.md`, or
 * `canvas-<channel> (2).md`… when another canvas of this console (`taken`) has that name, as a
 * second digest of a channel gets a canvas of its own in Slack; a file left by an earlier
 * console, whose digests ended with it, is replaced.
 */
export async function saveCanvas(
  channelId: string,
  markdown: string,
  cwd: string = process.cwd(),
  canvas: { readonly path?: string | undefined; readonly taken?: ReadonlySet<string> } = {},
): Promise<string> {
  await mkdir(join(cwd, exportsFolder), { recursive: true });
  const path = canvas.path ?? newCanvasPath(channelId, canvas.taken ?? new Set());
  await writeFile(join(cwd, path), markdown);
  return path;
}

function newCanvasPath(channelId: string, taken: ReadonlySet<string>): string {
  const stem = safeFileName(`canvas-${channelId}.md`).replace(/\.md$/, '');
  for (let copy = 1; ; copy++) {
    const path = `${exportsFolder}/${stem}${copy === 1 ? '' : ` (${copy})`}.md`;
    if (!taken.has(path)) return path;
  }
}
