// The generated validators against runtime ajv over the schema files: for any JSON value, and above all for near-valid
// messages, both must give the same verdict, and neither may throw; so must each of the two paths a generated validator
// has (its boolean fast path and ajv's error-reporting code).
import path from 'node:path';
import { createAjv, forAjv, type LoadedVersion, schemaId } from '@agentproto/codegen';
import type { Validator } from '@agentproto/runtime';
import fc from 'fast-check';
import { messages } from './mutate.js';

/** What a fuzz run found for one protocol version. */
export interface FuzzReport {
  target: string;
  inputs: number;
  failures: string[];
}

const idOf = (v: LoadedVersion, type: string) => schemaId(v.protocol, v.version, type);

/**
 * Runs `inputs` generated messages (spread over the version's types) through the standalone validators, the
 * runtime ajv. A failure is a throw or a verdict that differs, with a counterexample.
 */
export async function fuzzValidators(
  root: string,
  v: LoadedVersion,
  examples: ReadonlyMap<string, unknown[]>,
  inputs: number,
  seed: number,
  /** Changes the loaded standalone validators before the run (the tests break one to see the run catch it). */
  tamper?: (validators: Record<string, Validator>) => Record<string, Validator>,
): Promise<FuzzReport> {
  const ajv = createAjv();
  for (const s of v.schemas) ajv.addSchema(forAjv(s.value as object));
  const dir = path.join(root, v.packageDir, 'src/generated', v.version);
  const loaded = (await import(path.join(dir, 'validators.js'))) as Record<string, Validator>;
  const standalone = tamper ? tamper({ ...loaded }) : loaded;
  const types = v.schemas.map((s) => s.typeName).filter((t) => standalone[t]);
  const per = Math.max(1, Math.floor(inputs / types.length));
  const report: FuzzReport = { target: `${v.protocol}@${v.version} validators`, inputs: 0, failures: [] };
  for (const type of types) {
    const runtime = ajv.getSchema(idOf(v, type)) as Validator | undefined;
    const generated = standalone[type] as Validator;
    if (!runtime) throw new Error(`runtime ajv has no schema for ${type}`);
    const result = fc.check(
      fc.property(messages(examples.get(type) ?? []), (value) => {
        report.inputs++;
        const want = runtime(value);
        const got = generated(value);
        if (got !== want) throw new Error(`standalone says ${got}, runtime ajv ${want}`);
        // Both paths of the standalone validator on their own: the boolean fast path and ajv's error-reporting code.
        if (generated.fast && generated.fast(value) !== want)
          throw new Error(`the fast path says ${!want}, runtime ajv ${want}`);
        if (generated.full && generated.full(value) !== want)
          throw new Error(`the error-reporting path says ${!want}, runtime ajv ${want}`);
      }),
      { seed: seed + types.indexOf(type), numRuns: per, endOnFailure: true },
    );
    if (result.failed)
      report.failures.push(
        `${type}: ${String((result.errorInstance as Error)?.message ?? result.errorInstance)} for ${JSON.stringify(result.counterexample?.[0])?.slice(0, 300)}`,
      );
  }
  return report;
}
