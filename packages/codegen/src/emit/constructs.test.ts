// Codegen on its own small specs: one YAML file per construct under test/constructs/ (unions, nullable fields, allOf
// chains, status ranges, multipart, SSE and NDJSON items, YAML media types, a JSON-RPC surface), each run through validate → model → emit
// with golden output beside it. The goldens are TypeScript the repository's typecheck compiles, so emitted code that
// does not compile fails `pnpm typecheck`; the generated validators and routes are then run against the construct.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseYamlWithLocator } from '@agentproto/runtime/locate';
import { describe, expect, it } from 'vitest';
import { type LoadedVersion, schemaId } from '../load/load-protocols.js';
import { buildModel } from '../model/build-model.js';
import { validateVersion } from '../validate/validate-version.js';
import { emitVersion } from './emit-version.js';

const DIR = path.resolve(import.meta.dirname, '../../test/constructs');

interface Construct {
  schemas: Record<string, Record<string, unknown>>;
  paths: Record<string, unknown>;
  /** The methods and error components of a JSON-RPC surface, when the construct has one. */
  openrpc?: { methods: unknown[]; components?: Record<string, unknown> };
  /** Documents each type's validator must accept, and must refuse. */
  valid: Record<string, unknown[]>;
  invalid: Record<string, unknown[]>;
}

/**
 * A construct file as the load stage would have read it: each schema gets the `$schema`, `$id` and `title` every
 * schema file carries, and the OpenAPI document gets its header and one component per type.
 */
function loadConstruct(name: string): { loaded: LoadedVersion; construct: Construct } {
  const file = `packages/codegen/test/constructs/${name}.yaml`;
  const { value } = parseYamlWithLocator(readFileSync(path.join(DIR, `${name}.yaml`), 'utf8'));
  // sound: test/constructs/*.yaml are this suite's fixtures, each written as a Construct: its schemas and, by type,
  // the documents they must accept and refuse.
  const construct = value as Construct;
  const none = () => undefined;
  const schemas = Object.entries(construct.schemas).map(([typeName, schema]) => ({
    file,
    typeName,
    locate: none,
    value: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: schemaId(name, '1', typeName),
      title: typeName,
      ...schema,
    },
  }));
  const openapi = {
    openapi: '3.1.0',
    info: { title: `Construct ${name}`, version: '1' },
    paths: construct.paths,
    components: {
      schemas: Object.fromEntries(
        Object.keys(construct.schemas).map((t) => [t, { $ref: `./${t}.schema.json` }]),
      ),
    },
  };
  const title = `${name} construct`;
  return {
    construct,
    loaded: {
      protocol: name,
      version: '1',
      dir: 'packages/codegen/test/constructs',
      schemas,
      openapi: { file, value: openapi, locate: none, text: '' },
      ...(construct.openrpc
        ? {
            openrpc: {
              file,
              locate: none,
              text: '',
              value: {
                openrpc: '1.3.2',
                info: { title: `Construct ${name}`, version: '1' },
                methods: construct.openrpc.methods,
                components: { ...construct.openrpc.components, schemas: openapi.components.schemas },
              },
            },
          }
        : {}),
      manifest: {
        id: name,
        title,
        package: '@agentproto/constructs',
        latest: '1',
        versions: { '1': { title } },
      },
      entry: { title },
      packageDir: 'packages/codegen/test',
      fixtures: [],
    },
  };
}

const names = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.slice(0, -'.yaml'.length))
  .sort();

describe('codegen > constructs', () => {
  it('constructs > there are fixtures to run', () => {
    expect(names.length).toBeGreaterThanOrEqual(8);
  });

  describe.each(names)('%s', (name) => {
    it('emits the golden files', async () => {
      const { loaded } = loadConstruct(name);
      validateVersion(loaded);
      for (const f of await emitVersion(buildModel(loaded)))
        await expect(`${f.content.trimEnd()}\n`).toMatchFileSnapshot(
          path.join(DIR, 'generated', name, f.name),
        );
    });

    it('its validators accept the valid documents and refuse the invalid ones', async () => {
      const { construct } = loadConstruct(name);
      type Check = (v: unknown) => boolean;
      // sound: the module is the validators.js generated for this construct above: its exports are the validators,
      // functions of one value, each with its boolean fast path where it has one.
      const validators = (await import(path.join(DIR, 'generated', name, 'validators.js'))) as Record<
        string,
        Check & { fast?: Check }
      >;
      // The validator, and its boolean fast path on its own.
      const paths = (type: string): Check[] => {
        const v = validators[type];
        if (!v) throw new Error(`${name} has no validator for ${type}`);
        return v.fast ? [v, v.fast] : [v];
      };
      for (const [type, docs] of Object.entries(construct.valid))
        for (const d of docs)
          for (const check of paths(type)) expect(check(d), `${type} ${JSON.stringify(d)}`).toBe(true);
      for (const [type, docs] of Object.entries(construct.invalid))
        for (const d of docs)
          for (const check of paths(type)) expect(check(d), `${type} ${JSON.stringify(d)}`).toBe(false);
    });
  });
});
