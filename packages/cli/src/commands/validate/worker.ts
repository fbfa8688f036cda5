// One worker thread of `agentproto validate --workers N`: checks the byte range it was given (range.ts) and posts
// what it found to the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { resolveProtocol } from '../../protocols.js';
import { checkRange, type RangeResult, type RangeTask } from './range.js';

const task = workerData as RangeTask;
const protocol = await resolveProtocol(task.protocol);
const validate = protocol.validators[task.type];
if (!validate) throw new Error(`no type ${task.type}`);
parentPort?.postMessage((await checkRange(task, validate)) satisfies RangeResult);
