// One worker thread of `agentproto validate --workers N`: says it is ready, then checks each byte range the main
// thread sends (range.ts) and posts what it found, until the main thread sends `null`.
import { parentPort } from 'node:worker_threads';
import type { Validator } from '@agentproto/runtime/contract';
import { resolveProtocol } from '../../protocols.js';
import { checkRange, type RangeResult } from './range.js';
import type { WorkerMessage } from './workers.js';

const validators = new Map<string, Validator>();

parentPort?.on('message', async (task: WorkerMessage) => {
  if (task === null) {
    parentPort?.close();
    return;
  }
  let validate = validators.get(`${task.protocol} ${task.type}`);
  if (!validate) {
    validate = (await resolveProtocol(task.protocol)).validators[task.type];
    if (!validate) throw new Error(`no type ${task.type}`);
    validators.set(`${task.protocol} ${task.type}`, validate);
  }
  parentPort?.postMessage((await checkRange(task, validate)) satisfies RangeResult);
});
parentPort?.postMessage('ready');
