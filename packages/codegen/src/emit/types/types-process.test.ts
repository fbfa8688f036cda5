import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProtocols } from '../../load/load-protocols.js';
import { buildModel } from '../../model/build-model.js';
import { validateVersion } from '../../validate/validate-version.js';
import { moduleOptions, startTypesProcess } from './types-process.js';
import { emitVersionTypes } from './version-types.js';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');

describe('types process > options', () => {
  it('the second process gets the options that load modules, and no other (a debugger port, a profile)', () => {
    expect(
      moduleOptions([
        '--require',
        '/x/tsx/dist/preflight.cjs',
        '--inspect=9229',
        '--import',
        'file:///x/tsx/dist/loader.mjs',
        '--cpu-prof',
        '--conditions=development',
        '--max-old-space-size=64',
      ]),
    ).toEqual([
      '--require',
      '/x/tsx/dist/preflight.cjs',
      '--import',
      'file:///x/tsx/dist/loader.mjs',
      '--conditions=development',
    ]);
  });
});

describe('types process > the second process', () => {
  it("makes a version's type files, the same as this process makes them", async () => {
    const versions = await loadProtocols(ROOT, ['fixie']);
    const version = versions[0];
    if (!version) throw new Error('no fixie version to make types for');
    validateVersion(version);
    const model = buildModel(version);
    const maker = startTypesProcess();
    try {
      const types = await maker.emit(model);
      expect(maker.answered()).toBe(1);
      expect(types).toEqual(await emitVersionTypes(model));
    } finally {
      maker.close();
    }
  });
});
