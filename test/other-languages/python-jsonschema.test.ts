// Debian's python3-jsonschema validates every exported example and counterexample (against the per-type file, the
// 2020-12 bundle and the draft-07 bundle) exactly as our validators do.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { ExportFile } from '@agentproto/codegen';
import type { Validator } from '@agentproto/runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportToTemp } from '../support/export-dir.js';
import { protocolVersions, ROOT } from '../support/spec-files.js';
import { requireTool } from '../support/tools.js';

/** A protocol's package folder, from the registry. */
const packageDirOf = (protocol: string) =>
  protocolVersions().find((v) => v.protocol === protocol)?.packageDir ?? `packages/${protocol}`;

let files: ExportFile[] = [];
let dir = '';

beforeAll(async () => {
  requireTool("Debian's python3-jsonschema", '/usr/bin/python3', ['-c', 'import jsonschema, rfc3987']);
  ({ dir, files } = await exportToTemp('agentproto-python-'));
});

describe('export > python3-jsonschema', () => {
  it('agrees with our validators on every example and counterexample, three ways', async () => {
    // sound: check_with_jsonschema.py prints one JSON object: for each example and counterexample file, its verdicts.
    const verdicts = JSON.parse(
      execFileSync(
        '/usr/bin/python3',
        [path.join(ROOT, 'test/other-languages/check_with_jsonschema.py'), dir],
        {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      ),
    ) as Record<string, boolean[]>;
    const checked = Object.keys(verdicts);
    expect(checked.length).toBe(
      files.filter((f) => /\/(counter)?examples\/[^/]+\/[^/]+\.json$/.test(f.path)).length,
    );
    const ours = new Map<string, Record<string, Validator>>();
    for (const [file, [perType, bundle, draft07]] of Object.entries(verdicts)) {
      const [protocol = '', version = '', kind = '', type = ''] = file.split('/');
      if (!ours.has(`${protocol}/${version}`))
        ours.set(
          `${protocol}/${version}`,
          // sound: the module is the version's generated validators.js, whose every export is a Validator.
          (await import(
            path.join(ROOT, packageDirOf(protocol), 'src/generated', version, 'validators.js')
          )) as Record<string, Validator>,
        );
      const validate = ours.get(`${protocol}/${version}`)?.[type];
      const instance = JSON.parse(files.find((f) => f.path === file)?.content ?? 'null');
      const mine = validate?.(instance);
      expect({ file, perType, bundle, draft07 }).toEqual({
        file,
        perType: mine,
        bundle: mine,
        draft07: mine,
      });
      expect(mine, file).toBe(kind === 'examples');
    }
  }, 900_000);
});
