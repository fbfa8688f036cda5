// One worker of `agentproto validate --workers N`: checks the lines of one byte range of an NDJSON file against one
// type, and reports its issues with line and item numbers counted from the start of its range.
import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { describeErrors, eachNdjsonItem } from '@agentproto/runtime/documents';
import { resolveProtocol } from '../../protocols.js';

/** What the main thread asks of a worker. */
export interface WorkerTask {
  file: string;
  /** Byte range [start, end) of the file; both at line starts. */
  start: number;
  end: number;
  protocol: string;
  type: string;
  maxIssues: number;
}

/** What a worker answers: counts and issues, numbered within its range. */
export interface WorkerResult {
  items: number;
  lines: number;
  issues: Array<{ line: number; event: number; pointer: string; message: string; type?: string }>;
  truncated: boolean;
}

const task = workerData as WorkerTask;
const protocol = await resolveProtocol(task.protocol);
const validate = protocol.validators[task.type];
if (!validate) throw new Error(`no type ${task.type}`);
const issues: WorkerResult['issues'] = [];
let truncated = false;
const keep = (issue: WorkerResult['issues'][number]) => {
  if (issues.length < task.maxIssues) issues.push(issue);
  else truncated = true;
};
const counts =
  task.end > task.start
    ? await eachNdjsonItem(createReadStream(task.file, { start: task.start, end: task.end - 1 }), (frame) => {
        if (!frame.ok) keep({ line: frame.line, event: frame.index, pointer: '', message: frame.error });
        else if (!validate(frame.value)) {
          for (const i of describeErrors(validate.errors))
            keep({
              line: frame.line,
              event: frame.index,
              pointer: i.pointer,
              message: i.message,
              type: task.type,
            });
        }
      })
    : { items: 0, lines: 0 };
parentPort?.postMessage({ ...counts, issues, truncated } satisfies WorkerResult);
