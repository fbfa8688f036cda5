// `pnpm test`: the main stage. The generated files are checked first (drift is the commonest failure and the quickest
// to tell), then the type check and the lint run beside the test files. On 2 cores the test files leave a core idle
// much of the time (they wait on the servers and child processes they start), and the type check alone is close to a
// minute of one core: run one after the other, the stage took over its 3 minutes. Their output is kept and printed
// after vitest's, each under its own name, so nothing interleaves. Arguments go to vitest (`pnpm test
// packages/runtime` runs that folder's tests after the same checks). The exit code is vitest's when it failed, else 1
// when a check failed, else 0.
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

interface Finished {
  name: string;
  code: number;
  output: string;
  seconds: number;
}

/** Runs a command in the repository; its output is passed through, or kept when `keep` is set. */
function run(name: string, command: string, args: string[], keep: boolean): Promise<Finished> {
  const start = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => chunks.push(c));
    child.stderr?.on('data', (c: Buffer) => chunks.push(c));
    const finish = (code: number, extra = '') =>
      resolve({
        name,
        code,
        output: Buffer.concat(chunks).toString('utf8') + extra,
        seconds: Number(process.hrtime.bigint() - start) / 1e9,
      });
    child.on('error', (e) => finish(127, `${name}: could not start ${command}: ${e.message}\n`));
    child.on('close', (code, signal) => finish(code ?? 1, signal ? `${name}: ended by ${signal}\n` : ''));
  });
}

const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

const generated = await run('generate --check', 'pnpm', ['generate', '--check'], false);
if (generated.code !== 0) process.exit(generated.code);

// The lint after the type check, in one chain: three busy processes beside vitest's two workers would only take turns.
let pending = 'the type check';
const checks = (async () => {
  const typecheck = await run('typecheck', 'pnpm', ['typecheck'], true);
  pending = 'the lint';
  const lint = await run('lint', 'pnpm', ['lint'], true);
  pending = '';
  return [typecheck, lint];
})();
const tests = await run('vitest', bin('vitest'), ['run', ...process.argv.slice(2)], false);
if (pending !== '') console.log(`test: waiting for ${pending}, which runs beside the tests…`);
const done = await checks;

for (const check of done) {
  if (check.code === 0)
    console.log(`${check.name}: passed (${check.seconds.toFixed(0)} s, beside the tests)`);
  else process.stderr.write(`\n${check.name}: failed (exit ${check.code})\n${check.output}`);
}
const failed = done.filter((c) => c.code !== 0);
process.exit(tests.code !== 0 ? tests.code : failed.length > 0 ? 1 : 0);
