import standaloneCode from 'ajv/dist/standalone/index.js';
import { createAjv, forAjv } from '../../ajv.js';
import type {
  ContentModel,
  OperationModel,
  ParameterModel,
  ProtocolModel,
} from '../../model/protocol-model.js';

// ajv's standalone module is CommonJS; from ESM its function arrives under `.default`.
const toStandalone = standaloneCode as unknown as typeof standaloneCode.default;

/** A validator the message module exports for a schema written inline in the OpenAPI document. */
export interface InlineValidator {
  exportName: string;
  schema: Record<string, unknown>;
}

/** Names the validator of one inline request or response schema. */
export function inlineValidatorName(op: OperationModel, where: string, index: number): string {
  return `${op.operationId}_${where}_${index}`;
}

/** The inline (non-type) JSON schemas of request bodies and responses, each with its validator's export name. */
export function inlineValidators(model: ProtocolModel): InlineValidator[] {
  const out: InlineValidator[] = [];
  const add = (op: OperationModel, where: string, contents: ContentModel[]) =>
    contents.forEach((c, i) => {
      if (c.kind === 'stream') {
        // A stream's `schema` describes the raw text; its items are what gets validated.
        if (c.item && !c.item.typeName)
          out.push({ exportName: inlineValidatorName(op, `${where}_item`, i), schema: c.item.schema });
      } else if (c.kind !== 'binary' && !c.typeName) {
        out.push({ exportName: inlineValidatorName(op, where, i), schema: c.schema });
      }
    });
  for (const op of model.operations) {
    if (op.requestBody) add(op, 'body', op.requestBody.contents);
    for (const r of op.responses) add(op, `response${r.status}`, r.contents);
  }
  return out;
}

/**
 * Emits the message validators: one ajv standalone validator per public type (strict, all errors, formats), plus one
 * per inline body schema. ESM, no `new Function` at run time.
 */
export function emitMessageValidators(model: ProtocolModel): string {
  const ajv = createAjv({ code: { source: true, esm: true, lines: true } });
  const exports: Record<string, string> = {};
  for (const t of model.types) {
    ajv.addSchema(forAjv(t.schema));
    exports[t.name] = t.id;
  }
  for (const v of inlineValidators(model)) {
    const id = `${baseOf(model)}/inline/${v.exportName}.json`;
    ajv.addSchema(forAjv({ ...v.schema, $id: id }));
    exports[v.exportName] = id;
  }
  return toEsm(toStandalone(ajv, exports));
}

/** The name of the validator for an operation's path or query parameters. */
export function parameterValidatorName(op: OperationModel, where: 'path' | 'query'): string {
  return `${op.operationId}_${where}`;
}

/**
 * Emits the parameter validators: one per operation and location, over an object of the raw string values. They
 * coerce strings to the declared types and fill in defaults, as a server reading a URL must.
 */
export function emitParameterValidators(model: ProtocolModel): string {
  const ajv = createAjv({
    code: { source: true, esm: true, lines: true },
    coerceTypes: true,
    useDefaults: true,
  });
  for (const t of model.types) ajv.addSchema(forAjv(t.schema));
  const exports: Record<string, string> = {};
  for (const op of model.operations) {
    for (const where of ['path', 'query'] as const) {
      const params = where === 'path' ? op.pathParams : op.queryParams;
      const name = parameterValidatorName(op, where);
      const id = `${baseOf(model)}/parameters/${name}.json`;
      ajv.addSchema({ $id: id, ...parametersSchema(params) });
      exports[name] = id;
    }
  }
  return toEsm(toStandalone(ajv, exports));
}

function parametersSchema(params: ParameterModel[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

function baseOf(model: ProtocolModel): string {
  return `https://agentproto.dev/schemas/${model.protocol}/${model.version}`;
}

/**
 * ajv's standalone output still loads its runtime helpers with `require` even in ESM mode. Each such line becomes a
 * default import of the CommonJS module and a constant read from it.
 */
export function toEsm(code: string): string {
  const imports: string[] = [];
  const body = code.replace(
    /^const (\w+) = require\("([^"]+)"\)(.*);$/gm,
    (_line, name: string, mod: string, rest: string) => {
      const alias = `runtime${imports.length}`;
      imports.push(`import ${alias} from ${JSON.stringify(`${mod}.js`)};`);
      // Node gives a CommonJS module's `module.exports` as the default import; bundlers that honour `__esModule`
      // give its `exports.default` instead. Reading `.default` must work under both.
      if (rest.startsWith('.default'))
        return `const ${name} = (${alias}.default ?? ${alias})${rest.slice(8)};`;
      return `const ${name} = ${alias}${rest};`;
    },
  );
  if (/\brequire\(/.test(body))
    throw new Error('ajv standalone output still calls require(); toEsm must learn this form');
  return `${imports.join('\n')}\n${body.replace(/^"use strict";\n?/, '')}`;
}
