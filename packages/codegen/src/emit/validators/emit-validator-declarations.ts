// Emits the `.d.ts` files beside the standalone validators (which are plain JavaScript): each validator typed as a
// guard for its public type, so `validators.Task(value)` narrows `value` to `Task`.
import type { ProtocolModel } from '../../model/protocol-model.js';
import { type Code, doc, ident, str, ts } from '../code.js';
import { inlineValidators, parameterValidatorName, rpcValidators } from './emit-validators.js';

/** Emits `validators.d.ts`: each message validator typed as a guard for its public type. */
export function emitMessageValidatorDeclarations(model: ProtocolModel): Code {
  const types = model.types.map(
    (t) =>
      ts`${doc(`Validates a ${t.name} (${t.id}).`)}export declare const ${ident(t.name)}: Validator<components['schemas'][${str(t.name)}]>;\n`,
  );
  const inline = inlineValidators(model).map(
    (v) =>
      ts`${doc('Validates an inline schema of the OpenAPI document.')}export declare const ${ident(v.exportName)}: Validator;\n`,
  );
  const rpc = rpcValidators(model).map(
    (v) =>
      ts`${doc('Validates the params (or an inline result) of a method of the JSON-RPC surface.')}export declare const ${ident(v.exportName)}: Validator;\n`,
  );
  return ts`import type { Validator } from '@agentproto/runtime';
import type { components } from './openapi.js';

${types}${inline}${rpc}`;
}

/** Emits `parameters.d.ts`: the coercing validators of each operation's path and query parameters. */
export function emitParameterValidatorDeclarations(model: ProtocolModel): Code {
  const declarations = model.operations.flatMap((op) =>
    (['path', 'query'] as const).map(
      (where) =>
        ts`${doc(`Coerces and validates the ${where} parameters of ${op.operationId}.`)}export declare const ${ident(parameterValidatorName(op, where))}: Validator;\n`,
    ),
  );
  return ts`import type { Validator } from '@agentproto/runtime';

${declarations}`;
}
