import type { ProtocolModel } from '../../model/protocol-model.js';
import { ident, str } from '../code.js';
import { inlineValidators, parameterValidatorName } from './emit-validators.js';

/** Emits `validators.d.ts`: each message validator typed as a guard for its public type. */
export function emitMessageValidatorDeclarations(model: ProtocolModel): string {
  let out = `import type { Validator } from '@agentproto/runtime';\nimport type { components } from './openapi.js';\n\n`;
  for (const t of model.types) {
    out += `/** Validates a ${ident(t.name)} (${t.id}). */\n`;
    out += `export declare const ${ident(t.name)}: Validator<components['schemas'][${str(t.name)}]>;\n`;
  }
  for (const v of inlineValidators(model)) {
    out += `/** Validates an inline schema of the OpenAPI document. */\nexport declare const ${ident(v.exportName)}: Validator;\n`;
  }
  return out;
}

/** Emits `parameters.d.ts`: the coercing validators of each operation's path and query parameters. */
export function emitParameterValidatorDeclarations(model: ProtocolModel): string {
  let out = `import type { Validator } from '@agentproto/runtime';\n\n`;
  for (const op of model.operations) {
    for (const where of ['path', 'query'] as const) {
      out += `/** Coerces and validates the ${where} parameters of ${ident(op.operationId)}. */\n`;
      out += `export declare const ${ident(parameterValidatorName(op, where))}: Validator;\n`;
    }
  }
  return out;
}
