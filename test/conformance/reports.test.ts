// The report formats and expected failures: the JSON report validates against the schema we publish, the JUnit
// report parses as JUnit XML, and an expected-failures file turns known failures into warnings and fails on stale
// entries.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createReferenceAgent } from '@agentproto/agent-protocol/reference-agent';
import { createAjv } from '@agentproto/codegen';
import {
  ExpectedFailuresError,
  parseExpectedFailures,
  passed,
  render,
  runConformance,
} from '@agentproto/conformance';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';
import { list, prop } from '../support/typed.js';
import { broken, status } from './faults.js';

const schema = JSON.parse(
  readFileSync(path.join(ROOT, 'schemas/conformance/report/ConformanceReport.schema.json'), 'utf8'),
);
// An agent whose uploads fail: ap.artifact.upload fails, and so do the artifact checks that build on it.
const brokenUploads = () =>
  broken(createReferenceAgent(), { method: 'POST', path: /\/artifacts$/ }, status(500));

describe('conformance > reports', () => {
  it('json > validates against the published ConformanceReport schema', async () => {
    const validate = createAjv().compile(schema);
    for (const target of [createReferenceAgent(), brokenUploads()]) {
      const report = JSON.parse(render(await runConformance({ protocol: 'agent-protocol', target }), 'json'));
      expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
      expect(report).toMatchObject({ protocol: 'agent-protocol', version: 'v1', target: 'app' });
    }
  });

  it('json > a report with the schema-driven checks and the coverage table validates too', async () => {
    const validate = createAjv().compile(schema);
    const report = await runConformance({
      protocol: 'agent-protocol',
      target: createReferenceAgent(),
      fuzz: { requests: 40, seed: 3 },
      coverage: true,
    });
    const json = JSON.parse(render(report, 'json'));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.checks.map((c: { id: string }) => c.id)).toContain('ap.fuzz.invalid');
    // sound: the report passed its JSON Schema above, whose coverage rows each carry an id, a result and checks.
    const rows = json.coverage as Array<{ id: string; result: string; checks: string[] }>;
    expect(rows.find((r) => r.id === 'contract.invalid-requests')).toMatchObject({
      result: 'pass',
      checks: ['ap.fuzz.invalid'],
    });
    expect(rows.find((r) => r.id === 'ids.opaque')?.result).toBe('excluded');
    // The text report ends with the table, then the summary.
    const text = render(report, 'text').trimEnd().split('\n');
    expect(text.at(-2)).toMatch(/^requirements: \d+, covered by checks \d+, excluded \d+$/);
  });

  it('json > the schema refuses a report without its summary', () => {
    const validate = createAjv().compile(schema);
    expect(validate({ protocol: 'p', version: 'v', target: 't', checks: [] })).toBe(false);
  });

  it('junit > parses as JUnit XML, one testcase per check, failures marked', async () => {
    const report = await runConformance({ protocol: 'agent-protocol', target: brokenUploads() });
    const xml = render(report, 'junit');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suite = doc.testsuites.testsuite;
    expect(Number(suite.tests)).toBe(report.checks.length);
    const cases = list(suite.testcase, 'the testcases');
    expect(cases.map((c) => prop(c, 'name'))).toEqual(report.checks.map((c) => c.id));
    const failedCases = cases.filter((c) => prop(c, 'failure')).map((c) => prop(c, 'name'));
    expect(failedCases).toContain('ap.artifact.upload');
    expect(Number(suite.failures)).toBe(failedCases.length);
  });

  it('junit > messages with markup and control characters still make XML', () => {
    const report = {
      protocol: 'p',
      version: 'v',
      target: 'app',
      summary: {
        passed: 0,
        failed: 1,
        skipped: 0,
        blocked: 0,
        expectedFailures: 0,
        staleExpectations: 0,
        messagesValidated: 1,
      },
      checks: [
        {
          id: 'p.x',
          level: 'MUST' as const,
          status: 'fail' as const,
          message: 'got <b>"\u0001\u001b' + "'&",
          ref: 'r',
        },
      ],
    };
    expect(XMLValidator.validate(render(report, 'junit'))).toBe(true);
  });

  it('markdown > one table row per check', async () => {
    const report = await runConformance({ protocol: 'agent-protocol', target: createReferenceAgent() });
    const md = render(report, 'markdown');
    expect(md.split('\n').filter((l) => l.startsWith('| `'))).toHaveLength(report.checks.length);
  });
});

describe('conformance > expected failures', () => {
  const expectedUploads = {
    'ap.artifact.upload': 'uploads are not built yet',
    'ap.artifact.list': 'needs an upload',
    'ap.artifact.download': 'needs an upload',
  };

  it('unexpected failure > a MUST check that fails, unlisted, fails the run', async () => {
    const report = await runConformance({ protocol: 'agent-protocol', target: brokenUploads() });
    expect(passed(report)).toBe(false);
    expect(report.summary.failed).toBe(3);
  });

  it('expected failure > a listed failure is a warning, and the run passes', async () => {
    const report = await runConformance({
      protocol: 'agent-protocol',
      target: brokenUploads(),
      expectedFailures: expectedUploads,
    });
    expect(passed(report)).toBe(true);
    expect(report.summary).toMatchObject({ failed: 0, expectedFailures: 3, staleExpectations: 0 });
    expect(report.checks.find((c) => c.id === 'ap.artifact.upload')).toMatchObject({
      status: 'fail',
      expectedFailure: true,
    });
  });

  it('stale entry > a listed check that passes fails the run', async () => {
    const report = await runConformance({
      protocol: 'agent-protocol',
      target: createReferenceAgent(),
      expectedFailures: { 'ap.task.paginate': 'paging is broken' },
    });
    expect(passed(report)).toBe(false);
    expect(report.summary).toMatchObject({ failed: 1, staleExpectations: 1 });
    expect(report.checks.find((c) => c.id === 'ap.task.paginate')?.message).toMatch(
      /but it passed: remove the entry/,
    );
  });

  it('expected failure > a schema-driven check may be listed, but only when --fuzz adds it', async () => {
    const crashes = () =>
      broken(
        createReferenceAgent(),
        { method: 'POST', path: /\/steps$/, body: (t) => t.includes('additional') },
        status(500),
      );
    const report = await runConformance({
      protocol: 'agent-protocol',
      target: crashes(),
      fuzz: { requests: 60, seed: 1 },
      expectedFailures: { 'ap.fuzz.valid': 'steps with additional_input crash (issue 7)' },
    });
    expect(report.checks.find((c) => c.id === 'ap.fuzz.valid')).toMatchObject({
      status: 'fail',
      expectedFailure: true,
    });
    expect(passed(report)).toBe(true);
    await expect(
      runConformance({
        protocol: 'agent-protocol',
        target: crashes(),
        expectedFailures: { 'ap.fuzz.valid': 'x' },
      }),
    ).rejects.toThrow(/expected failure "ap\.fuzz\.valid" is not a check of agent-protocol/);
  });

  it('file > ids must be checks and reasons must be given', () => {
    const known = ['ap.task.create'];
    expect(parseExpectedFailures('ap.task.create: not yet\n', known)).toEqual({
      'ap.task.create': 'not yet',
    });
    expect(() => parseExpectedFailures('ap.nope: x\n', known, 'xf.yaml')).toThrow(ExpectedFailuresError);
    expect(() => parseExpectedFailures('ap.nope: x\n', known, 'xf.yaml')).toThrow(
      /xf\.yaml: \/ap\.nope: no check has this id/,
    );
    expect(() => parseExpectedFailures('ap.task.create: ""\n', known)).toThrow(/give the reason/);
  });
});
