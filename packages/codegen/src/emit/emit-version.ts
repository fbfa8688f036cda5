// Emit stage: every emitter over one protocol version, each returning the text of one file. Nothing here writes.
import type { ProtocolModel } from '../model/protocol-model.js';
import { emitBinding } from './binding/emit-binding.js';
import { emitClient } from './client/emit-client.js';
import { emitIndex } from './emit-index.js';
import { emitPaths } from './paths/emit-paths.js';
import { emitRequirements } from './requirements/emit-requirements.js';
import { emitRoutes } from './routes/emit-routes.js';
import { emitRpcClient, emitRpcServer } from './rpc/emit-rpc.js';
import { emitRpcTypes } from './rpc/emit-rpc-types.js';
import { emitSurface } from './surface/emit-surface.js';
import { emitTypes } from './types/emit-types.js';
import {
  emitMessageValidatorDeclarations,
  emitParameterValidatorDeclarations,
} from './validators/emit-validator-declarations.js';
import { emitMessageValidators, emitParameterValidators } from './validators/emit-validators.js';

/** One file an emitter produced: where it goes (relative to its version folder), what it was made from, its text. */
export interface EmittedFile {
  name: string;
  /** Source the banner names, relative to the repository root. */
  source: string;
  content: string;
}

/** Emit stage: runs every emitter over one protocol version. Returns strings; never touches the disk. */
export async function emitVersion(model: ProtocolModel): Promise<EmittedFile[]> {
  const schemas = `${model.dir}/*.schema.json`;
  const surface = model.openapiFile;
  return [
    { name: 'openapi.ts', source: surface, content: String(await emitTypes(model)) },
    { name: 'validators.js', source: schemas, content: String(emitMessageValidators(model)) },
    { name: 'validators.d.ts', source: schemas, content: String(emitMessageValidatorDeclarations(model)) },
    { name: 'parameters.js', source: surface, content: String(emitParameterValidators(model)) },
    { name: 'parameters.d.ts', source: surface, content: String(emitParameterValidatorDeclarations(model)) },
    { name: 'paths.ts', source: surface, content: String(emitPaths(model)) },
    { name: 'routes.ts', source: surface, content: String(emitRoutes(model)) },
    { name: 'client.ts', source: surface, content: String(emitClient(model)) },
    ...(model.rpc
      ? [
          { name: 'rpc-types.ts', source: schemas, content: String(await emitRpcTypes(model)) },
          { name: 'rpc.ts', source: model.rpc.file, content: String(emitRpcServer(model)) },
          { name: 'rpc-client.ts', source: model.rpc.file, content: String(emitRpcClient(model)) },
        ]
      : []),
    { name: 'surface.ts', source: surface, content: String(emitSurface(model)) },
    ...(model.requirements
      ? [
          {
            name: 'requirements.ts',
            source: model.requirements.file,
            content: String(emitRequirements(model)),
          },
        ]
      : []),
    { name: 'index.ts', source: surface, content: String(emitIndex(model)) },
    {
      name: 'binding.ts',
      source: `schemas/${model.protocol}/protocol.yaml`,
      content: String(emitBinding(model)),
    },
  ];
}
