// The second process of a run (types-process.ts): loads the type-writing libraries as soon as it starts, then makes
// the type files of each version model it is sent, one at a time, and answers each with their text or its failure.
// It ends when the run lets go of it (the IPC channel closes).
import { readFileSync, rmSync } from 'node:fs';
import { deserialize } from 'node:v8';
import type { ProtocolModel } from '../../model/protocol-model.js';
import { loadTypeLibrary, requireTypeLibrary } from './type-libraries.js';
import { emitVersionTypes } from './version-types.js';

/** A request: make the type files of the model in `file` (written by types-process.ts with v8's `serialize`). */
export interface TypesRequest {
  id: number;
  file: string;
}

/** An answer: the files, or that making them failed (the run then makes them itself, to report the real error). */
export type TypesAnswer =
  | { id: number; types: Awaited<ReturnType<typeof emitVersionTypes>> }
  | { id: number; failed: string };

// Source maps off: with them on (tsx turns them on), Node scans every module it compiles for a source map and indexes
// its lines — TypeScript's compiler is one file of 9 MB. Nothing here needs mapped stack traces: a failed request is
// made again by the run, whose error is the one reported.
process.setSourceMapsEnabled(false);

// Loaded while the run reads and checks the schemas; a library that is missing fails its request instead.
const ready = Promise.allSettled([
  loadTypeLibrary('typescript', async () => requireTypeLibrary('typescript')),
  loadTypeLibrary('openapi-typescript', async () => requireTypeLibrary('openapi-typescript')),
  loadTypeLibrary('json-schema-to-typescript', () => import('json-schema-to-typescript')),
]);

let queue = Promise.resolve();
process.on('message', (message: TypesRequest) => {
  queue = queue.then(async () => {
    await ready;
    let answer: TypesAnswer;
    try {
      // sound: the file holds a ProtocolModel, serialized by types-process.ts for this request and read once.
      const model = deserialize(readFileSync(message.file)) as ProtocolModel;
      rmSync(message.file, { force: true });
      answer = { id: message.id, types: await emitVersionTypes(model) };
    } catch (error) {
      answer = { id: message.id, failed: error instanceof Error ? error.message : String(error) };
    }
    process.send?.(answer);
  });
});
process.on('disconnect', () => process.exit(0));
