// A short, seeded run of `pnpm fuzz` (the full run sends a million validator inputs and 100,000 requests per target),
// and proof that each of its checks can fail.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createAgentProtocolApp } from '@agentproto/agent-protocol';
import { createReferenceHandlers } from '@agentproto/agent-protocol/reference-agent';
import type { Validator } from '@agentproto/runtime';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { mutate } from '../../scripts/fuzz/mutate.js';
import { fuzzRoutes } from '../../scripts/fuzz/routes.js';
import { fuzzVersions, routeTargets } from '../../scripts/fuzz/targets.js';
import { fuzzValidators } from '../../scripts/fuzz/validators.js';
import { record } from '../support/typed.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const versions = await fuzzVersions(ROOT);
const targets = routeTargets(versions);
/**
 * The inputs each proof that a check can fail is given (about 60 per type of agent-protocol v1): a tampered validator
 * disagrees on most mutated messages of its type, so the seeded run meets a disagreement within its first few, and
 * the agreement runs above still send their 3000.
 */
const CHECK_INPUTS = 600;

describe('fuzz > validators agree with runtime ajv and never throw', () => {
  it.each(versions.map((v) => [`${v.loaded.protocol}@${v.loaded.version}`, v] as const))(
    '%s',
    async (_, v) => {
      const report = await fuzzValidators(ROOT, v.loaded, v.examples, 3000, 12);
      expect(report.failures).toEqual([]);
      expect(report.inputs).toBeGreaterThan(2500);
    },
  );

  it('check > a validator that disagrees with its schema is caught', async () => {
    const v = versions.find((x) => x.loaded.protocol === 'agent-protocol' && x.loaded.version === 'v1');
    if (!v) throw new Error('no agent-protocol@v1');
    // Runtime ajv gets a Task schema that takes any object; the generated validator still wants a whole task.
    const schemas = v.loaded.schemas.map((s) =>
      s.typeName === 'Task' ? { ...s, value: { ...record(s.value), allOf: [{ type: 'object' }] } } : s,
    );
    const report = await fuzzValidators(ROOT, { ...v.loaded, schemas }, v.examples, CHECK_INPUTS, 12);
    expect(report.failures.some((f) => f.startsWith('Task:'))).toBe(true);
  });

  it('check > a fast path that disagrees with the error-reporting code is caught', async () => {
    const v = versions.find((x) => x.loaded.protocol === 'agent-protocol' && x.loaded.version === 'v1');
    if (!v) throw new Error('no agent-protocol@v1');
    // The validator as a whole still answers right (it tries the full path when the fast one says no)...
    const report = await fuzzValidators(ROOT, v.loaded, v.examples, CHECK_INPUTS, 12, (validators) => {
      const task = validators.Task;
      if (!task?.full) throw new Error('Task has no fast path');
      // ...but its fast path now takes any object.
      validators.Task = Object.assign((data: unknown): data is unknown => task(data), {
        fast: (data: unknown) => typeof data === 'object' && data !== null,
        full: task.full,
      });
      return validators;
    });
    expect(report.failures.some((f) => f.startsWith('Task:') && f.includes('fast path'))).toBe(true);
  });

  it('check > errors that point where ajv sees no fault, or no errors at all, are caught', async () => {
    const v = versions.find((x) => x.loaded.protocol === 'agent-protocol' && x.loaded.version === 'v1');
    if (!v) throw new Error('no agent-protocol@v1');
    const report = await fuzzValidators(ROOT, v.loaded, v.examples, CHECK_INPUTS, 12, (validators) => {
      const task = validators.Task;
      const step = validators.Step;
      if (!task || !step) throw new Error('no Task or Step validator');
      // The verdicts are still right; Task's errors are moved one level down (where ajv names no fault)...
      const moved: Validator = Object.assign(
        (data: unknown): data is unknown => {
          const valid = task(data);
          moved.errors =
            task.errors?.map((e) => ({ ...e, instancePath: `${e.instancePath}/nowhere` })) ?? null;
          return valid;
        },
        { errors: null },
      );
      // ...and Step's are dropped.
      const dropped: Validator = Object.assign((data: unknown): data is unknown => step(data), {
        errors: null,
      });
      return { ...validators, Task: moved, Step: dropped };
    });
    expect(report.failures.some((f) => f.startsWith('Task:') && f.includes('which ajv does not'))).toBe(true);
    expect(report.failures.some((f) => f.startsWith('Step:') && f.includes('reports no error'))).toBe(true);
  });
});

describe('fuzz > every route of every reference agent', () => {
  it('coverage > every protocol version the manifests list has a reference agent to fuzz', () => {
    const covered = new Set(targets.map((t) => `${t.version.loaded.protocol}@${t.version.loaded.version}`));
    const listed = versions.map((v) => `${v.loaded.protocol}@${v.loaded.version}`);
    expect(listed.filter((v) => !covered.has(v))).toEqual([]);
  });

  it.each(targets.map((t) => [t.target.name, t] as const))('%s', async (_, { target, version }) => {
    const report = await fuzzRoutes(target, version.examples, 600, 12);
    expect(report.failures).toEqual([]);
    expect(report.inputs).toBe(600);
    // The requests reach handlers, not only the validation in front of them.
    expect(Object.keys(report.statuses).some((s) => s.startsWith('2'))).toBe(true);
  });

  it('check > an agent that answers 500, logs, or answers an error in plain text is caught', async () => {
    const ap = targets.find((t) => t.target.name === 'agent-protocol@v1');
    if (!ap) throw new Error('no agent-protocol@v1 target');
    const handlers = createReferenceHandlers();
    const broken = () => {
      // A route in front of the generated ones answers a plain-text error, as a hand-written one might.
      const base = new Hono();
      base.get('/ap/v1/agent/tasks/:id/steps/:step', (c) => c.text('nope', 400));
      return createAgentProtocolApp(
        {
          ...handlers,
          getAgentTask: () => {
            throw new Error('broken on purpose');
          },
        },
        { app: base },
      );
    };
    const report = await fuzzRoutes({ ...ap.target, app: broken }, ap.version.examples, 600, 12);
    expect(report.failures.length).toBeGreaterThan(0);
    expect(report.failures.some((f) => /GET \/ap\/v1\/agent\/tasks\/[^/]+ .*answered 500/.test(f))).toBe(
      true,
    );
    expect(report.failures.some((f) => /the agent logged ".*broken on purpose/.test(f))).toBe(true);
    expect(report.failures.some((f) => /answered 400 with text\/plain/.test(f))).toBe(true);
  });
});

describe('fuzz > mutations', () => {
  it.each([
    ['delete', { a: 1, b: 2 }, 1, { b: 2 }],
    ['null', { a: 1 }, 1, { a: null }],
    ['retype', { a: 'xy' }, 1, { a: 2 }],
    ['hostile-key', { a: {} }, 1, { a: JSON.parse('{"__proto__": 0}') }],
  ] as const)('mutate > %s', (mutation, given, pick, want) => {
    const got = mutate(given, mutation, pick, 0, 0);
    expect(JSON.stringify(got)).toBe(JSON.stringify(want));
    expect(given).not.toEqual(got);
  });
});

describe('pnpm fuzz > its options', () => {
  it('a --protocol that does not exist is a usage error (exit 2), not a run of nothing that says "no failures"', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'scripts/fuzz.ts'),
        '--validators',
        '10',
        '--requests',
        '10',
        '--protocol',
        'fixie',
        '--protocol',
        'nosuch',
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.status, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain('pnpm fuzz: no protocol "nosuch" under schemas/');
    expect(run.stdout).not.toContain('no failures');
  }, 120_000);
});
