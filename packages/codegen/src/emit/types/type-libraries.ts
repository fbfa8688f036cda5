// The libraries that write TypeScript types — openapi-typescript, json-schema-to-typescript and the TypeScript
// compiler they build on — are optional peers of this package: `pnpm generate` needs them (a checkout of the
// repository installs them), while an installed CLI that validates, diffs, serves or exports never loads them and
// does not carry their 60-odd MB. They are loaded on first use; a missing one is named with the command that adds it.
import { createRequire } from 'node:module';

/** The generator's type-writing libraries, with the ranges this package is built against. */
export const TYPE_LIBRARIES = ['openapi-typescript', 'json-schema-to-typescript', 'typescript'] as const;

/** A type-writing library the generator needs and cannot find. */
export class MissingTypeLibraryError extends Error {
  constructor(readonly library: string) {
    super(
      `writing TypeScript types needs ${library}, an optional peer of @agentproto/codegen that is not installed; ` +
        `run \`npm install --save-dev ${TYPE_LIBRARIES.join(' ')}\` (a checkout of the repository has them)`,
    );
    this.name = 'MissingTypeLibraryError';
  }
}

/** Whether an import failed because `library` itself could not be found (not because something inside it failed). */
function notFound(error: unknown, library: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? error.code : undefined;
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && error.message.includes(`'${library}'`)
  );
}

/**
 * Runs `load` (a dynamic import of `library`), turning "cannot find that package" into a MissingTypeLibraryError;
 * any other failure passes through as it is.
 */
export async function loadTypeLibrary<T>(library: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw notFound(error, library) ? new MissingTypeLibraryError(library) : error;
  }
}

const requireHere = createRequire(import.meta.url);

/**
 * A library loaded through `require`, for libraries that ship CommonJS. Node 20's `import()` of a CommonJS module
 * first scans the module's whole text for its export names (cjs-module-lexer), and TypeScript's compiler is one file of
 * 9 MB: imported, it took three times the CPU it takes required (1.1 s against 0.4 s, measured on Node 20), and a
 * re-render of one version waited on it. openapi-typescript ships a CommonJS build that requires TypeScript, so both
 * are loaded without the scan.
 */
export function requireTypeLibrary(library: string): unknown {
  return requireHere(library);
}
