// The exported schema set: its layout, and every $ref resolving inside the set. Other languages' validators and type
// generators read it in test/other-languages/ (the second test stage).

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ExportFile, renderExport, SCHEMA_ID_BASE } from '@agentproto/codegen';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ROOT } from '../support/spec-files.js';
import { list, prop, record, stringAt } from '../support/typed.js';

const BASE = `${SCHEMA_ID_BASE}/`;
let files: ExportFile[] = [];
let dir = '';

beforeAll(async () => {
  files = await renderExport(ROOT);
  dir = mkdtempSync(path.join(tmpdir(), 'agentproto-export-'));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.content);
  }
});

function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refs(n, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

function pointer(doc: unknown, fragment: string): unknown {
  let node = doc;
  for (const token of fragment.split('/').slice(1)) {
    const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    node = Array.isArray(node) ? node[Number(key)] : prop(node, key);
  }
  return node;
}

describe('export', () => {
  it('layout > every protocol version has its types, bundles, OpenAPI document and examples', () => {
    const paths = new Set(files.map((f) => f.path));
    for (const v of [
      'agent-protocol/v1',
      'agent-protocol/v1-awaiting-input',
      'agentscope/0.1',
      'agentscope/1.1',
      'fixie/1.0',
      'agent-protocol-2025/draft-2025-02',
    ]) {
      for (const name of ['bundle.schema.json', 'bundle.draft-07.schema.json', 'openapi.yaml'])
        expect(paths.has(`${v}/${name}`), `${v}/${name}`).toBe(true);
      expect(
        [...paths].some((p) => p.startsWith(`${v}/examples/`)),
        `${v}/examples`,
      ).toBe(true);
    }
    expect(paths.has('conformance/report/ConformanceReport.schema.json')).toBe(true);
  });

  it('refs > every $ref resolves inside the set', () => {
    const byPath = new Map(files.map((f) => [f.path, f]));
    const parsed = new Map<string, unknown>();
    const load = (p: string) => {
      if (!parsed.has(p)) {
        const f = byPath.get(p);
        parsed.set(p, f ? (p.endsWith('.yaml') ? parseYaml(f.content) : JSON.parse(f.content)) : undefined);
      }
      return parsed.get(p);
    };
    let count = 0;
    for (const f of files.filter((x) => x.path.endsWith('.schema.json') || x.path.endsWith('openapi.yaml'))) {
      for (const ref of refs(load(f.path))) {
        count++;
        const [file = '', fragment = ''] = ref.split('#');
        const target = file === '' ? f.path : new URL(file, `${BASE}${f.path}`).href.replace(BASE, '');
        const doc = load(target);
        expect(doc, `${f.path}: ${ref} names ${target}, which the set lacks`).toBeDefined();
        if (fragment) expect(pointer(doc, fragment), `${f.path}: ${ref}`).toBeDefined();
      }
    }
    expect(count).toBeGreaterThan(500);
  });

  it('catalog > each entry points at a file of the set', () => {
    const catalog: unknown = JSON.parse(files.find((f) => f.path === 'catalog.json')?.content ?? '{}');
    const paths = new Set(files.map((f) => f.path));
    for (const s of list(prop(catalog, 'schemas'), 'the catalog')) {
      const versions = Object.values(record(prop(s, 'versions') ?? {}));
      for (const url of [stringAt(s, 'url'), ...versions.map(String)])
        expect(paths.has(url.replace(BASE, '')), url).toBe(true);
    }
  });
});
