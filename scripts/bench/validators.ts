// Validator speed, as a ratio to JSON.parse of the same bytes (the floor every message pays), with ajv at run time,
// TypeBox's TypeCompiler and zod 4 measured in the same rounds on equivalent schemas.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validators as v11 } from '@agentproto/agentscope/1.1';
import { createAjv, forAjv, loadProtocols, schemaId } from '@agentproto/codegen';
import { describeErrors, type Validator } from '@agentproto/runtime';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { typeboxAgentRequest, typeboxContent, zodAgentRequest, zodContent } from './peers.js';
import { compare, formatRatio, ratio, type Spread } from './timing.js';

/** One row of BENCHMARKS.md. */
export interface Row {
  measure: string;
  result: string;
  target: string;
  met: boolean | undefined;
  notes?: string;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The messages: a small content event of a real stream, and a large request (10 messages, 5 tools). */
function messages() {
  const capture = readFileSync(path.join(ROOT, 'schemas/agentscope/1.1/streams/upstream-shape.sse'), 'utf8');
  const delta =
    capture
      .split('\n\n')
      .map((f) => f.slice('data: '.length))
      .find((f) => f.includes('"delta":true')) ?? '';
  const tool = (i: number) => ({
    type: 'function',
    function: {
      name: `tool_${i}`,
      description: `Tool number ${i}, which does one thing well.`,
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' } },
        required: ['city'],
      },
    },
  });
  const message = (i: number) => ({
    id: `msg_${i}`,
    object: 'message',
    type: 'message',
    status: 'completed',
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: [
      {
        type: 'text',
        object: 'content',
        index: 0,
        delta: false,
        msg_id: `msg_${i}`,
        status: 'completed',
        text: `Turn ${i}: ${'words '.repeat(30)}`,
      },
      { type: 'data', index: 1, data: { turn: i, tags: ['a', 'b'] } },
    ],
    usage: null,
    metadata: null,
  });
  const request = {
    input: Array.from({ length: 10 }, (_, i) => message(i)),
    stream: true,
    model: 'qwen-max',
    temperature: 0.3,
    n: 1,
    tools: Array.from({ length: 5 }, (_, i) => tool(i)),
    session_id: 'session_bench',
  };
  const badDelta = delta.replace('"delta":true', '"delta":"yes"');
  const badRequest = JSON.stringify({ ...request, n: 9 });
  return { delta, request: JSON.stringify(request), badDelta, badRequest };
}

/** Runtime ajv over the same schema files the generated validators come from, with the same options. */
async function runtimeAjv(): Promise<Record<'Content' | 'AgentRequest', Validator>> {
  const version = (await loadProtocols(ROOT, ['agentscope'])).find((v) => v.version === '1.1');
  const ajv = createAjv({ allErrors: true });
  for (const s of version?.schemas ?? []) {
    // The validate stage has made every schema file an object with its `$id`, as ajv takes it.
    if (typeof s.value !== 'object' || s.value === null) throw new Error(`${s.file}: not a schema object`);
    ajv.addSchema(forAjv(s.value));
  }
  // sound: both types' schemas are loaded just above and none has `$async`, so ajv gives each a synchronous
  // function that answers a boolean and keeps `errors`: a Validator.
  const get = (t: string) => ajv.getSchema(schemaId('agentscope', '1.1', t)) as Validator;
  return { Content: get('Content'), AgentRequest: get('AgentRequest') };
}

export async function benchValidators(): Promise<Row[]> {
  const m = messages();
  const generated = v11;
  const runtime = await runtimeAjv();
  const tb = {
    Content: TypeCompiler.Compile(typeboxContent),
    AgentRequest: TypeCompiler.Compile(typeboxAgentRequest),
  };
  const zod = { Content: zodContent, AgentRequest: zodAgentRequest };
  const rows: Row[] = [];
  const cases = [
    { name: 'small content event', type: 'Content' as const, good: m.delta, bad: m.badDelta },
    {
      name: 'AgentRequest, 10 messages and 5 tools',
      type: 'AgentRequest' as const,
      good: m.request,
      bad: m.badRequest,
    },
  ];
  for (const c of cases) {
    const good = JSON.parse(c.good);
    const bad = JSON.parse(c.bad);
    const gv = generated[c.type];
    if (!gv(good) || gv(bad) || !tb[c.type].Check(good) || !zod[c.type].safeParse(good).success)
      throw new Error(`bench messages for ${c.type} are not what they should be`);
    const valid = compare({
      parse: () => JSON.parse(c.good),
      generated: () => gv(good),
      ajv: () => runtime[c.type]?.(good),
      typebox: () => tb[c.type].Check(good),
      zod: () => zod[c.type].safeParse(good),
    });
    const rv = runtime[c.type];
    const invalid = compare({
      parse: () => JSON.parse(c.bad),
      // Everything wrong with a bad message, each with its pointer: what problem details and the CLI report.
      generated: () => gv(bad) || describeErrors(gv.errors).map((i) => i.pointer),
      ajv: () => rv(bad) || describeErrors(rv.errors).map((i) => i.pointer),
      typebox: () => tb[c.type].Check(bad) || [...tb[c.type].Errors(bad)].map((e) => e.path),
      zod: () => zod[c.type].safeParse(bad).error?.issues.map((i) => i.path),
    });
    const line = (r: Record<string, number[]>, target: number, what: string) => {
      const g = ratio(r.generated ?? [], r.parse ?? []);
      const peers = ['ajv', 'typebox', 'zod']
        .map((p) => `${p} ${formatRatio(ratio(r[p] ?? [], r.parse ?? []))}`)
        .join(', ');
      rows.push({
        measure: `generated validator, ${what} (${c.name}), time ÷ JSON.parse`,
        result: formatRatio(g),
        target: `≤ ${target}×`,
        met: g.median <= target,
        notes: `peers: ${peers}; JSON.parse ${ns(r.parse)} per message`,
      });
      return g;
    };
    // The small event has to be at or ahead of TypeBox's compiled check; the large request within a tenth of its parse.
    line(valid, c.type === 'Content' ? 0.03 : 0.1, 'valid message');
    line(invalid, 0.3, 'invalid message, every error with its pointer');
  }
  return rows;
}

function ns(values: readonly number[] | undefined): string {
  const sorted = [...(values ?? [])].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return median >= 1000 ? `${(median / 1000).toFixed(1)} µs` : `${median.toFixed(0)} ns`;
}

export type { Spread };
