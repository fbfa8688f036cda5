// Builds the probes of one operation: valid ones (from the version's examples and from samples of the schemas, each
// confirmed by the binding's validator) and near-valid ones (a valid probe with one rule broken, kept only when the
// validator rejects it). Path parameters take values the scenario offered or earlier answers named.
import type { Surface, SurfaceContent, SurfaceOperation } from '@agentproto/runtime/contract';
import type { ProtocolBinding } from '../kit/types.js';
import { bodyMutations, type Mutation, queryMutations } from './mutate.js';
import type { Probe, ProbeBody } from './probe.js';
import type { Random } from './random.js';
import { sample } from './sample.js';
import { SchemaSet } from './schemas.js';

/** The base URI parameter schemas resolve against (their references are absolute `$id`s). */
const BASE = 'https://agentproto.dev/';
const ATTEMPTS = 8;

/** Makes probes for the operations of one surface. */
export class ProbeFactory {
  readonly schemas: SchemaSet;

  constructor(
    private readonly surface: Surface,
    private readonly binding: ProtocolBinding,
    private readonly random: Random,
    /** Values of path parameters, by name: offered by the scenario, or read from earlier answers. */
    private readonly known: ReadonlyMap<string, readonly string[]>,
  ) {
    this.schemas = new SchemaSet(surface.schemas);
  }

  /** A request that keeps every rule of `operation`, or undefined when no valid body could be made. */
  valid(operation: SurfaceOperation): Probe | undefined {
    const query: Record<string, string> = {};
    for (const p of operation.queryParams)
      if (p.required || this.random.chance(0.5))
        query[p.name] = paramText(sample(this.schemas, { node: p.schema, base: BASE }, this.random));
    const probe: Probe = { operation, valid: true, path: this.pathValues(operation), query };
    const content = this.bodyContent(operation);
    if (!content) return probe;
    const body = this.validBody(content);
    if (!body) return operation.body?.required ? undefined : probe;
    return { ...probe, ...body };
  }

  /** Every single-rule mutation of a fresh valid probe of `operation`, each confirmed invalid. */
  invalid(operation: SurfaceOperation): Probe[] {
    const base = this.valid(operation);
    if (!base) return [];
    const out: Probe[] = [];
    const query = queryMutations(this.schemas, operation.queryParams, BASE);
    for (const m of query)
      out.push({ ...base, valid: false, mutation: describe(m), query: m.apply(base.query) });
    const body = base.body;
    if (body?.kind === 'json') {
      const validate = base.bodyType ? this.binding.validators[base.bodyType] : undefined;
      const content = this.bodyContent(operation);
      if (validate && content)
        for (const m of bodyMutations(this.schemas, { node: content.schema, base: BASE }, body.value)) {
          const value = m.apply(body.value);
          if (!validate(value))
            out.push({
              ...base,
              valid: false,
              mutation: describe(m),
              body: { ...body, value },
              origin: { value: body.value, apply: m.apply },
            });
        }
      // JSON that does not parse: the body cut short.
      const text = JSON.stringify(body.value);
      out.push({
        ...base,
        valid: false,
        mutation: { kind: 'malformed-body', at: '', description: 'the body is JSON cut short' },
        body: { kind: 'text', mediaType: body.mediaType, text: text.slice(0, Math.max(1, text.length - 1)) },
      });
    } else if (body?.kind === 'form') {
      const content = this.bodyContent(operation);
      const required = content
        ? this.schemas.shape({ node: content.schema, base: BASE }).required
        : new Set<string>();
      for (const key of Object.keys(body.files))
        if (required.has(key)) {
          const files = Object.fromEntries(Object.entries(body.files).filter(([k]) => k !== key));
          out.push({
            ...base,
            valid: false,
            mutation: {
              kind: 'missing-required',
              at: `/${key}`,
              description: `the form has no ${key} part, though required`,
            },
            body: { ...body, files },
          });
        }
    }
    return out;
  }

  /** A body whose top-level keys named like a known id (`id`, `request_id`) mostly take one the agent gave. */
  private withKnownIds(value: unknown): unknown {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const out: Record<string, unknown> = { ...value };
    for (const key of Object.keys(out)) {
      const known = this.known.get(key) ?? [];
      if (typeof out[key] === 'string' && known.length > 0 && this.random.chance(0.85))
        out[key] = this.random.pick(known);
    }
    return out;
  }

  private pathValues(operation: SurfaceOperation): Record<string, string> {
    const out: Record<string, string> = {};
    for (const p of operation.pathParams) {
      const known = this.known.get(p.name) ?? [];
      out[p.name] =
        known.length > 0 && this.random.chance(0.85)
          ? this.random.pick(known)
          : `conformance-${this.random.int(0, 9999)}`;
    }
    return out;
  }

  /** The body content the probes use: JSON first, then a form, then anything else. */
  private bodyContent(operation: SurfaceOperation): SurfaceContent | undefined {
    const contents = operation.body?.contents ?? [];
    return contents.find((c) => c.kind === 'json') ?? contents.find((c) => c.kind === 'form') ?? contents[0];
  }

  private validBody(content: SurfaceContent): Pick<Probe, 'body' | 'bodyType'> | undefined {
    if (content.kind === 'form') {
      const shape = this.schemas.shape({ node: content.schema, base: BASE });
      const fields: Record<string, string> = {};
      const files: Record<string, string> = {};
      for (const [key, property] of shape.properties) {
        if (content.fileFields?.includes(key)) files[key] = `conformance upload ${this.random.int(0, 999)}`;
        else if (shape.required.has(key) || this.random.chance(0.5)) {
          const v = sample(this.schemas, property, this.random);
          if (v !== null) fields[key] = paramText(v);
        }
      }
      return { body: { kind: 'form', fields, files } };
    }
    if (content.kind !== 'json')
      return { body: { kind: 'text', mediaType: content.mediaType, text: 'conformance' } };
    const validate = content.typeName ? this.binding.validators[content.typeName] : undefined;
    const examples = (content.typeName ? this.surface.examples[content.typeName] : undefined) ?? [];
    const json = (value: unknown): Pick<Probe, 'body' | 'bodyType'> => ({
      body: { kind: 'json', mediaType: content.mediaType, value } satisfies ProbeBody,
      ...(content.typeName ? { bodyType: content.typeName } : {}),
    });
    if (examples.length > 0 && this.random.chance(0.3)) return json(this.random.pick(examples));
    for (let i = 0; i < ATTEMPTS; i++) {
      const value = this.withKnownIds(
        sample(this.schemas, { node: content.schema, base: BASE }, this.random),
      );
      if (!validate || validate(value)) return json(value);
    }
    return examples.length > 0 ? json(this.random.pick(examples)) : undefined;
  }
}

function describe<T>(m: Mutation<T>): NonNullable<Probe['mutation']> {
  return { kind: m.kind, at: m.at, description: m.description };
}

/** A parameter value as sent in a URL. */
function paramText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
