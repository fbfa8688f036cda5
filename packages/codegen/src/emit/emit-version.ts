// Emit stage: every emitter over one protocol version, each returning the text of one file. Nothing here writes.
import type { PieceMemo } from '../cache/piece-memo.js';
import type { ProtocolModel } from '../model/protocol-model.js';
import { emitBinding } from './binding/emit-binding.js';
import { emitClient } from './client/emit-client.js';
import { emitIndex } from './emit-index.js';
import { emitPaths } from './paths/emit-paths.js';
import { emitClientRequirements, emitRequirements } from './requirements/emit-requirements.js';
import { emitRoutes } from './routes/emit-routes.js';
import { emitRpcClient, emitRpcServer } from './rpc/emit-rpc.js';
import { emitSurface } from './surface/emit-surface.js';
import { IN_PROCESS, type TypesMaker } from './types/types-process.js';
import {
  emitMessageValidatorDeclarations,
  emitParameterValidatorDeclarations,
} from './validators/emit-validator-declarations.js';
import { messageValidators, parameterValidators } from './validators/emit-validators.js';

/** One file an emitter produced: where it goes (relative to its version folder), what it was made from, its text. */
export interface EmittedFile {
  name: string;
  /** Source the banner names, relative to the repository root. */
  source: string;
  content: string;
}

/**
 * Emit stage: runs every emitter over one protocol version. Returns strings; never touches the disk. The type files
 * come from `types` (in this process, or a second one: types-process.ts), asked for first and awaited last, so a
 * second process makes them while this one runs the other emitters.
 */
export async function emitVersion(
  model: ProtocolModel,
  types: TypesMaker = IN_PROCESS,
  memo?: PieceMemo,
): Promise<EmittedFile[]> {
  const schemas = `${model.dir}/*.schema.json`;
  const surface = model.openapiFile;
  const typed = types.emit(model);
  // Awaited below; if another emitter throws first, this promise's failure is not left unhandled.
  typed.catch(() => undefined);
  const validators = messageValidators(model, memo);
  const validatorDeclarations = String(emitMessageValidatorDeclarations(model));
  const parameters = parameterValidators(model, memo);
  const parameterDeclarations = String(emitParameterValidatorDeclarations(model));
  const paths = String(emitPaths(model));
  const routes = String(emitRoutes(model));
  const client = String(emitClient(model));
  const rpc = model.rpc && {
    file: model.rpc.file,
    server: String(emitRpcServer(model)),
    client: String(emitRpcClient(model)),
  };
  const surfaceFile = String(emitSurface(model));
  const requirements = model.requirements && {
    file: model.requirements.file,
    content: String(emitRequirements(model)),
  };
  const clientRequirements = model.clientRequirements && {
    file: model.clientRequirements.file,
    content: String(emitClientRequirements(model)),
  };
  const index = String(emitIndex(model));
  const binding = String(emitBinding(model));
  const { openapi, rpcTypes = '' } = await typed;
  return [
    { name: 'openapi.ts', source: surface, content: openapi },
    { name: 'validators.js', source: schemas, content: validators },
    { name: 'validators.d.ts', source: schemas, content: validatorDeclarations },
    { name: 'parameters.js', source: surface, content: parameters },
    { name: 'parameters.d.ts', source: surface, content: parameterDeclarations },
    { name: 'paths.ts', source: surface, content: paths },
    { name: 'routes.ts', source: surface, content: routes },
    { name: 'client.ts', source: surface, content: client },
    ...(rpc
      ? [
          { name: 'rpc-types.ts', source: schemas, content: rpcTypes },
          { name: 'rpc.ts', source: rpc.file, content: rpc.server },
          { name: 'rpc-client.ts', source: rpc.file, content: rpc.client },
        ]
      : []),
    { name: 'surface.ts', source: surface, content: surfaceFile },
    ...(requirements
      ? [{ name: 'requirements.ts', source: requirements.file, content: requirements.content }]
      : []),
    ...(clientRequirements
      ? [
          {
            name: 'client-requirements.ts',
            source: clientRequirements.file,
            content: clientRequirements.content,
          },
        ]
      : []),
    { name: 'index.ts', source: surface, content: index },
    { name: 'binding.ts', source: `schemas/${model.protocol}/protocol.yaml`, content: binding },
  ];
}
