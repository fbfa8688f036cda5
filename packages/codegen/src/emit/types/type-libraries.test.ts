import { describe, expect, it } from 'vitest';
import { loadTypeLibrary, MissingTypeLibraryError, requireTypeLibrary } from './type-libraries.js';

describe('loadTypeLibrary', () => {
  it('a library that is not installed > named, with the command that installs the three', async () => {
    const specifier = 'agentproto-no-such-type-library';
    const failure = loadTypeLibrary(specifier, () => import(specifier));
    await expect(failure).rejects.toBeInstanceOf(MissingTypeLibraryError);
    await expect(failure).rejects.toThrow(
      /needs agentproto-no-such-type-library, an optional peer of @agentproto\/codegen .*npm install --save-dev openapi-typescript json-schema-to-typescript typescript/,
    );
  });

  it('a library that fails for another reason > that failure, as it is', async () => {
    const inside = Object.assign(new Error("Cannot find package 'left-pad' imported from x"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(loadTypeLibrary('typescript', () => Promise.reject(inside))).rejects.toBe(inside);
  });

  it('a library that is not installed, required > named the same way', async () => {
    const specifier = 'agentproto-no-such-type-library';
    const failure = loadTypeLibrary(specifier, async () => requireTypeLibrary(specifier));
    await expect(failure).rejects.toBeInstanceOf(MissingTypeLibraryError);
  });
});
