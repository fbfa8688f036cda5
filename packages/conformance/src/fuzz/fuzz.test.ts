import { knownProtocols, resolveBinding } from '@agentproto/registry';
import type { SuiteContext, Surface, Validator } from '@agentproto/runtime/contract';
import { describe, expect, it } from 'vitest';
import { isRecord, messageOf, prop, record } from '../../../../test/support/typed.js';
import { ProbeFactory } from './cases.js';
import { curlCommand, shellQuote } from './curl.js';
import { runFuzz } from './fuzz.js';
import { bodyMutations } from './mutate.js';
import type { Probe } from './probe.js';
import { Random } from './random.js';
import { sample } from './sample.js';
import { SchemaSet } from './schemas.js';

const bindings = await Promise.all(
  knownProtocols().flatMap((p) => p.versions.map((v) => resolveBinding(`${p.protocol}@${v.version}`))),
);
const BASE = 'https://agentproto.dev/';

describe('fuzz > probes from the real surfaces', () => {
  it.each(bindings.map((b) => [`${b.protocol}@${b.version}`, b] as const))(
    '%s > the sampler makes valid bodies of every request type; every mutation is one the validator rejects',
    async (_, binding) => {
      const surface = await binding.surface?.();
      if (!surface) throw new Error('no surface');
      const schemas = new SchemaSet(surface.schemas);
      const factory = new ProbeFactory(surface, binding, new Random(7), new Map());
      let mutations = 0;
      for (const operation of surface.operations) {
        const content = operation.body?.contents.find((c) => c.kind === 'json');
        const validate = content?.typeName ? binding.validators[content.typeName] : undefined;
        if (content && validate) {
          // The generator itself, without the examples to fall back on: some of 30 samples must be valid.
          const random = new Random(11);
          const valid = Array.from({ length: 30 }, () =>
            sample(schemas, { node: content.schema, base: BASE }, random),
          ).filter((v) => validate(v));
          expect(
            valid.length,
            `${operation.operationId}: valid samples of ${content.typeName}`,
          ).toBeGreaterThan(0);
        }
        for (const probe of factory.invalid(operation)) {
          expect(probe.valid).toBe(false);
          expect(probe.mutation?.description.length).toBeGreaterThan(5);
          if (probe.body?.kind === 'json' && validate && !probe.mutation?.at.startsWith('?'))
            expect(validate(probe.body.value), probe.mutation?.description).toBe(false);
          mutations++;
        }
      }
      // The JSON-RPC methods, where the version has them: valid params sampled, every mutation rejected.
      for (const m of surface.rpc?.methods ?? []) {
        const validate = binding.validators[m.paramsType];
        expect(validate, m.paramsType).toBeDefined();
        const random = new Random(13);
        const valid = Array.from({ length: 30 }, () =>
          sample(schemas, { node: m.params, base: BASE }, random),
        ).filter((v) => validate?.(v));
        expect(valid.length, `${m.name}: valid params`).toBeGreaterThan(0);
        const base = valid[0];
        for (const mutation of bodyMutations(schemas, { node: m.params, base: BASE }, base)) {
          const broken = mutation.apply(base);
          // A mutation the validator still accepts is dropped by the factory; one it rejects is sent as invalid.
          if (validate?.(broken)) continue;
          expect(mutation.description.length).toBeGreaterThan(5);
          mutations++;
        }
      }
      // Over both surfaces (MCP's HTTP surface is one endpoint; its methods are where the rules are).
      expect(mutations).toBeGreaterThan(3);
    },
  );

  it('seed > the same seed makes the same probes, another seed others', async () => {
    const binding = await resolveBinding('agent-protocol@v1');
    const surface = await binding.surface?.();
    if (!surface) throw new Error('agent-protocol@v1 describes no surface');
    const probes = (seed: number) => {
      const factory = new ProbeFactory(
        surface,
        binding,
        new Random(seed),
        new Map([['task_id', ['t1', 't2']]]),
      );
      return surface.operations
        .flatMap((o) => [factory.valid(o), ...factory.invalid(o)])
        .map((p) => JSON.stringify(p && { ...p, operation: p.operation.operationId }));
    };
    expect(probes(5)).toEqual(probes(5));
    expect(probes(5)).not.toEqual(probes(6));
  });
});

describe('fuzz > curl', () => {
  const operation = {
    operationId: 'op',
    method: 'POST',
    path: '/items/{id}',
    pathParams: [],
    queryParams: [],
    responses: {},
  };
  it('quotes > a single quote inside survives the shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
  it('json > method, URL with its path and query, headers, body', () => {
    const probe: Probe = {
      operation,
      valid: false,
      path: { id: 'a b' },
      query: { page: '0' },
      body: { kind: 'json', mediaType: 'application/json', value: { name: "O'Brien" } },
    };
    expect(curlCommand(probe, 'http://127.0.0.1:8000/', { 'A2A-Version': '1.0' })).toBe(
      `curl -sS -i -X POST 'http://127.0.0.1:8000/items/a%20b?page=0' -H 'A2A-Version: 1.0' -H 'content-type: application/json' --data-binary '{"name":"O'\\''Brien"}'`,
    );
  });
  it('json-rpc > the params inside a request envelope, to the endpoint itself', () => {
    const probe: Probe = {
      operation: { ...operation, path: '', rpc: { method: 'GetTask', resultType: 'Task', errors: [] } },
      valid: true,
      path: {},
      query: {},
      body: { kind: 'json', mediaType: 'application/json', value: { id: 't1' } },
    };
    expect(curlCommand(probe, 'http://h/jsonrpc', {})).toBe(
      `curl -sS -i -X POST 'http://h/jsonrpc' -H 'content-type: application/json' --data-binary '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t1"}}'`,
    );
  });
  it('form > fields as -F, the file from standard input', () => {
    const probe: Probe = {
      operation,
      valid: true,
      path: { id: 'x' },
      query: {},
      body: { kind: 'form', fields: { relative_path: 'a' }, files: { file: 'bytes' } },
    };
    expect(curlCommand(probe, 'http://h', {})).toBe(
      `printf %s 'bytes' | curl -sS -i -X POST 'http://h/items/x' -F 'relative_path=a' -F 'file=@-;filename=conformance.txt'`,
    );
  });
});

// A made-up surface of one operation, and an agent with a bug: it takes a `size` of 0, under the minimum.
const ITEM = {
  $id: 'https://example.com/Item.schema.json',
  type: 'object',
  required: ['name', 'size'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 40 },
    size: { type: 'integer', minimum: 1, maximum: 10 },
    color: { enum: ['red', 'blue'] },
    tags: { type: 'array', items: { type: 'string' } },
  },
};
const isItem = (v: unknown): boolean => {
  if (!isRecord(v)) return false;
  const o = v;
  const keysOk = Object.keys(o).every((k) => k in ITEM.properties);
  const nameOk = typeof o.name === 'string' && o.name.length >= 1 && o.name.length <= 40;
  const sizeOk = typeof o.size === 'number' && Number.isInteger(o.size) && o.size >= 1 && o.size <= 10;
  const colorOk = o.color === undefined || o.color === 'red' || o.color === 'blue';
  const tagsOk =
    o.tags === undefined || (Array.isArray(o.tags) && o.tags.every((t) => typeof t === 'string'));
  return keysOk && nameOk && sizeOk && colorOk && tagsOk;
};
const validator: Validator = Object.assign((v: unknown): v is unknown => isItem(v), {
  errors: null,
});
const surface: Surface = {
  schemas: [ITEM],
  operations: [
    {
      operationId: 'createItem',
      method: 'POST',
      path: '/items',
      pathParams: [],
      queryParams: [],
      body: {
        required: true,
        contents: [
          { mediaType: 'application/json', kind: 'json', typeName: 'Item', schema: { $ref: ITEM.$id } },
        ],
      },
      responses: {
        '201': [
          { mediaType: 'application/json', kind: 'json', typeName: 'Item', schema: { $ref: ITEM.$id } },
        ],
        '400': [{ mediaType: 'application/json', kind: 'json', schema: { type: 'object' } }],
      },
    },
  ],
  examples: {},
};
const buggy = {
  fetch: async (request: Request) => {
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return Response.json({ error: 'not JSON' }, { status: 400 });
    }
    const lenient = prop(body, 'size') === 0;
    if (!lenient && !isItem(body)) return Response.json({ error: 'invalid' }, { status: 400 });
    return Response.json(body, { status: 201 });
  },
};

/** The made-up version's binding: only the body's validator. */
const binding = {
  protocol: 'made-up',
  version: '1',
  title: 't',
  package: 'p',
  validators: { Item: validator },
};

/** A context that records each check's outcome, as the kit's runner would. */
function recorder() {
  const results = new Map<string, { ok: boolean; message: string }>();
  // sound: runFuzz uses only the context's `check`, which this one has; the rest of a runner's context goes unread.
  const context = {
    async check(id: string, fn: () => Promise<string | undefined> | string | undefined) {
      try {
        results.set(id, { ok: true, message: (await fn()) ?? '' });
      } catch (error) {
        results.set(id, { ok: false, message: messageOf(error) });
      }
      return true;
    },
  } as unknown as SuiteContext;
  return { results, context };
}

describe('fuzz > a campaign against a made-up agent', () => {
  it('time > a slow agent: the campaign stops at its time budget and says after how many requests', async () => {
    const { results, context } = recorder();
    const slow = async (r: Request) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return buggy.fetch(r);
    };
    await runFuzz(
      {
        binding,
        surface,
        target: { baseUrl: 'http://agent', fetch: slow, label: 'app' },
        timeoutMs: 2_000,
        headers: {},
        offered: new Map(),
      },
      { requests: 10_000, seed: 1, timeMs: 300 },
      context,
      'm',
    );
    expect(results.get('m.fuzz.declared')?.message).toMatch(
      /stopped after \d+ requests: the time budget of 300 ms ran out/,
    );
  });

  it('finds the bug, shrinks it to the smallest request that shows it, and prints it as curl', async () => {
    const { results, context } = recorder();
    await runFuzz(
      {
        binding,
        surface,
        target: { baseUrl: 'http://agent', fetch: buggy.fetch, label: 'app' },
        timeoutMs: 2_000,
        headers: {},
        offered: new Map(),
      },
      { requests: 60, seed: 1 },
      context,
      'm',
    );
    expect(results.get('m.fuzz.valid')).toMatchObject({ ok: true });
    expect(results.get('m.fuzz.declared')).toMatchObject({ ok: true });
    const invalid = results.get('m.fuzz.invalid');
    expect(invalid?.ok).toBe(false);
    expect(invalid?.message).toMatch(
      /POST \/items \(\/size is 0, under its minimum 1\): answered 201, accepting a request that breaks its schema/,
    );
    // Shrunk: the required name (cut to 8 characters at most) and the size that shows the bug; nothing optional.
    const curl = /curl .*--data-binary '(.*)'$/m.exec(invalid?.message ?? '')?.[1] ?? '';
    const sent = record(JSON.parse(curl));
    expect(Object.keys(sent).sort()).toEqual(['name', 'size']);
    expect(sent.size).toBe(0);
    expect(String(sent.name).length).toBeLessThanOrEqual(8);
  });
});
