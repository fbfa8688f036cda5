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

/**
 * The repository root at or above `from`, for a command that works only in a checkout (`generate`, `version add`);
 * outside one (an installed CLI), a usage error (exit code 2) that says so in one line.
 */
export function findRoot(from: string, command: string): string {
  const root = repositoryRoot(from);
  if (!root)
    throw new UsageError(
      `${command} works in a checkout of the agentproto repository (schemas/ and packages/), and there is none here or above; run it in one, or pass --root <checkout>`,
    );
  return root;
}
