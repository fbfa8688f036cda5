// The generated validators against runtime ajv over the schema files: for any JSON value, and above all for near-valid
// messages, both must give the same verdict, and neither may throw; so must each of the two paths a generated validator
// has (its boolean fast path and ajv's error-reporting code).
import path from 'node:path';
import { createAjv, forAjv, type LoadedVersion, schemaId } from '@agentproto/codegen';
import type { Validator } from '@agentproto/runtime';
import fc from 'fast-check';
import { isObjectLike, messages } from './mutate.js';

/** What a fuzz run found for one protocol version. */
export interface FuzzReport {
  target: string;
  inputs: number;
  failures: string[];
}

const idOf = (v: LoadedVersion, type: string) => schemaId(v.protocol, v.version, type);

/** Each error as the keyword that failed and where: `type at /a/0`. */
const located = (errors: Validator['errors']) =>
  (errors ?? []).map((e) => `${e.keyword} at ${e.instancePath}`);

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
  for (const s of v.schemas) {
    // The validate stage has made every schema file an object with its `$id`, as ajv takes it.
    if (typeof s.value !== 'object' || s.value === null) throw new Error(`${s.file}: not a schema object`);
    ajv.addSchema(forAjv(s.value));
  }
  const dir = path.join(root, v.packageDir, 'src/generated', v.version);
  // sound: the module is the version's generated validators.js, every export of which is a Validator (its
  // validators.d.ts, emitted beside it, declares each one so).
  const loaded = (await import(path.join(dir, 'validators.js'))) as Record<string, Validator>;
  const standalone = tamper ? tamper({ ...loaded }) : loaded;
  const types = v.schemas.flatMap((s) => {
    const generated = standalone[s.typeName];
    return generated ? [{ type: s.typeName, generated }] : [];
  });
  const per = Math.max(1, Math.floor(inputs / types.length));
  const report: FuzzReport = { target: `${v.protocol}@${v.version} validators`, inputs: 0, failures: [] };
  for (const [index, { type, generated }] of types.entries()) {
    // sound: the schemas have no `$async`, so ajv compiled each to a synchronous function that answers a boolean
    // and keeps `errors`: a Validator.
    const runtime = ajv.getSchema(idOf(v, type)) as Validator | undefined;
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
        // The errors of a bad message may be fewer than ajv's (a union reports the branch its members name), but
        // never none, and each must be one ajv reports too: the same keyword failing at the same place.
        if (!got) {
          const ours = located(generated.errors);
          const theirs = new Set(located(runtime.errors));
          const stray = ours.find((e) => !theirs.has(e));
          if (ours.length === 0)
            throw new Error('the standalone validator says invalid but reports no error');
          if (stray !== undefined)
            throw new Error(`the standalone validator reports ${stray}, which ajv does not`);
        }
      }),
      { seed: seed + index, numRuns: per, endOnFailure: true },
    );
    if (result.failed) {
      const thrown = result.errorInstance;
      const message = isObjectLike(thrown) ? thrown.message : undefined;
      report.failures.push(
        `${type}: ${String(message ?? thrown)} for ${JSON.stringify(result.counterexample?.[0])?.slice(0, 300)}`,
      );
    }
  }
  return report;
}
