// Where the repository is: the nearest folder at or above the current one that holds both schemas/ and packages/.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './exit-codes.js';

/** The repository root at or above `from`, if there is one. */
export function repositoryRoot(from: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'schemas')) && existsSync(path.join(dir, 'packages'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The repository root at or above `from`; a usage error when there is none. */
export function findRoot(from: string): string {
  const root = repositoryRoot(from);
  if (!root) throw new UsageError('no schemas/ and packages/ folders here or above; pass --root');
  return root;
}
