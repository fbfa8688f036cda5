// The inputs `agentproto validate` names: files, FIFOs, standard input, and folders walked for known extensions.
// An input that cannot be read is reported as that input's issue, so the others are still checked.
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../exit-codes.js';
import { BY_EXTENSION } from './formats.js';

/** An input that cannot be checked, and why. */
export interface Unreadable {
  file: string;
  why: string;
}

/**
 * The files an input names: itself (a file, a FIFO or `-`, read as given), or, for a folder, every regular file
 * inside with a known extension, recursively. Links are followed, each folder once (a link loop ends there); an entry
 * that cannot be read, or that is not a regular file, is listed as unreadable with the reason.
 */
export async function expand(input: string, seen = new Set<string>()): Promise<Array<string | Unreadable>> {
  if (input === '-') return ['-'];
  const info = await stat(input).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) {
    if (info.code === 'ENOENT') throw new UsageError(`cannot read ${input}: no such file or folder`);
    return [{ file: input, why: `cannot read: ${info.code ?? info.message}` }];
  }
  if (!info.isDirectory()) return [input];
  const real = await realpath(input).catch(() => input);
  if (seen.has(real)) return [];
  seen.add(real);
  const out: Array<string | Unreadable> = [];
  let entries: string[];
  try {
    entries = (await readdir(input)).sort((a, b) => a.localeCompare(b));
  } catch (error) {
    return [
      // sound: readdir rejects with Node's system error, whose code names what went wrong
      { file: input, why: `cannot read the folder: ${(error as NodeJS.ErrnoException).code ?? error}` },
    ];
  }
  for (const name of entries) {
    const p = path.join(input, name);
    const entry = await stat(p).catch((error: NodeJS.ErrnoException) => error);
    if (entry instanceof Error) {
      if (path.extname(name).toLowerCase() in BY_EXTENSION)
        out.push({ file: p, why: `cannot read: ${entry.code ?? entry.message}` });
    } else if (entry.isDirectory()) out.push(...(await expand(p, seen)));
    else if (path.extname(name).toLowerCase() in BY_EXTENSION) {
      // A FIFO or device inside a folder would block the walk: only regular files are read there.
      out.push(entry.isFile() ? p : { file: p, why: 'not a regular file (name it on its own to read it)' });
    }
  }
  return out;
}
