// `pnpm fuzz [--validators N] [--requests N] [--seed S] [--protocol id…]`: seeded, bounded fuzzing of every protocol's
// generated validators (against runtime ajv) and of every reference agent's routes. Prints what it ran and what broke;
// exits 1 when anything did. `pnpm test` runs a short run of the same code (test/fuzz/fuzz.test.ts).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fuzzRoutes } from './fuzz/routes.js';
import { fuzzVersions, routeTargets } from './fuzz/targets.js';
import { fuzzValidators } from './fuzz/validators.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    validators: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '12' },
    protocol: { type: 'string', multiple: true },
  },
});
const validatorInputs = Number(values.validators);
const requests = Number(values.requests);
const seed = Number(values.seed);

const versions = await fuzzVersions(ROOT, values.protocol);
// A protocol named that has no version here would be fuzzed not at all, and "no failures" would say nothing.
const unknown = (values.protocol ?? []).filter((id) => !versions.some((v) => v.loaded.protocol === id));
if (unknown.length > 0) {
  console.error(`pnpm fuzz: no protocol ${unknown.map((id) => `"${id}"`).join(', ')} under schemas/`);
  process.exit(2);
}
let failed = 0;
const report = (
  r: { target: string; inputs: number; failures: string[]; statuses?: Record<string, number> },
  ms: number,
) => {
  const statuses = r.statuses
    ? ` (${Object.entries(r.statuses)
        .map(([s, n]) => `${s}×${n}`)
        .join(', ')})`
    : '';
  console.log(
    `${r.failures.length === 0 ? 'ok  ' : 'FAIL'} ${r.target}: ${r.inputs} inputs in ${(ms / 1000).toFixed(1)} s${statuses}`,
  );
  for (const f of r.failures) console.log(`     ${f}`);
  failed += r.failures.length;
};
for (const v of versions) {
  const start = Date.now();
  report(await fuzzValidators(ROOT, v.loaded, v.examples, validatorInputs, seed), Date.now() - start);
}
for (const { target, version } of routeTargets(versions)) {
  const start = Date.now();
  report(await fuzzRoutes(target, version.examples, requests, seed), Date.now() - start);
}
console.log(failed === 0 ? 'no failures' : `${failed} failures`);
// Agents may still have timers running (a long count, say): the run is over.
process.exit(failed === 0 ? 0 : 1);
