// Every example message the MCP project publishes with a revision's schema (kept unchanged as third-party test data
// in test/fixtures/mcp-upstream/) is valid under our schema of the type its folder names: our schemas accept what
// upstream says its messages look like. Revision 2025-11-25 publishes none.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATED } from '@agentproto/mcp';
import { describeErrors, type Validator } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

const FIXTURES = path.join(ROOT, 'test/fixtures/mcp-upstream');

/** Whether a fixture folder is named for a revision the package generates. */
const isRevision = (name: string): name is keyof typeof GENERATED => Object.hasOwn(GENERATED, name);

for (const revision of readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory())) {
  const version = revision.name;
  if (!isRevision(version)) throw new Error(`test/fixtures/mcp-upstream/${version}: no such MCP revision`);
  const validators: Readonly<Record<string, Validator>> = GENERATED[version].validators;
  const dir = path.join(FIXTURES, revision.name, 'examples');
  const files = readdirSync(dir).flatMap((type) =>
    readdirSync(path.join(dir, type)).map((name) => ({ type, name, file: path.join(dir, type, name) })),
  );

  describe(`mcp@${revision.name} > upstream's examples`, () => {
    it('there are examples of many types', () => {
      expect(new Set(files.map((f) => f.type)).size).toBeGreaterThan(50);
    });
    it.each(files.map((f) => [`${f.type}/${f.name}`, f] as const))('%s is valid', (_, { type, file }) => {
      const validate = validators[type];
      expect(validate, `a type named ${type}`).toBeDefined();
      const ok = validate?.(JSON.parse(readFileSync(file, 'utf8')));
      expect(describeErrors(validate?.errors), file).toEqual([]);
      expect(ok).toBe(true);
    });
  });
}
