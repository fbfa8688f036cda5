// `agentproto validate --workers N`: an NDJSON file checked against one type by N threads, the main thread and N - 1
// worker threads (worker.ts), each reading its own byte range (range.ts), with the issues renumbered from the start
// of the file.
import { open, stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { ProtocolVersion } from '../../protocols.js';
import { checkRange, type RangeResult, type RangeTask } from './range.js';
import { type InputIssue, MAX_KEPT_ISSUES } from './reporters.js';

// The process's Node options, less those a worker thread refuses (`--input-type` of a process started with `-e`).
const WORKER_EXEC_ARGV = process.execArgv.filter((a) => !a.startsWith('--input-type'));

/**
 * Checks an NDJSON file against one type with `workers` threads: the file is cut at line starts into byte ranges, each
 * thread reads and checks its own range, and the issues come back renumbered from the start of the file, in order.
 * The main thread takes the first range itself: it would only wait otherwise, and N threads on N cores is what
 * `--workers N` asks for. Worker threads run the built JavaScript of an installed CLI.
 */
export async function validateInWorkers(
  protocol: ProtocolVersion,
  file: string,
  type: string,
  workers: number,
  found: (issue: InputIssue) => void,
): Promise<number> {
  const size = (await stat(file)).size;
  const cuts = [0];
  const handle = await open(file, 'r');
  try {
    for (let k = 1; k < workers; k++) {
      // The range starts after the first newline at or past its share of the bytes.
      let at = Math.max(Math.floor((size * k) / workers), cuts.at(-1) ?? 0);
      const buffer = Buffer.alloc(64 * 1024);
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
        if (bytesRead === 0) {
          at = size;
          break;
        }
        const nl = buffer.subarray(0, bytesRead).indexOf(10);
        if (nl !== -1) {
          at += nl + 1;
          break;
        }
        at += bytesRead;
      }
      cuts.push(Math.min(at, size));
    }
  } finally {
    await handle.close();
  }
  cuts.push(size);
  // In the workspace the CLI runs from TypeScript sources through tsx; its workers must too.
  const source = import.meta.url.endsWith('.ts');
  const script = new URL(`./worker.${source ? 'ts' : 'js'}`, import.meta.url);
  const validate = protocol.validators[type];
  if (!validate) throw new Error(`no type ${type}`);
  const results = await Promise.all(
    cuts.slice(0, -1).map((start, k) => {
      const task: RangeTask = {
        file,
        start,
        end: cuts[k + 1] ?? size,
        protocol: `${protocol.protocol}@${protocol.version}`,
        type,
        maxIssues: MAX_KEPT_ISSUES,
      };
      // Started after the workers (this callback runs for every range before the main thread reads a byte).
      if (k === 0) return new Promise<void>((go) => setImmediate(go)).then(() => checkRange(task, validate));
      return new Promise<RangeResult>((resolve, reject) => {
        // A worker thread does not inherit tsx's loader: from sources, a small script registers it first.
        const worker = source
          ? new Worker(
              `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); });`,
              { eval: true, workerData: task },
            )
          : new Worker(script, { workerData: task, execArgv: WORKER_EXEC_ARGV });
        worker.once('message', (r: RangeResult) => resolve(r));
        worker.once('error', reject);
        worker.once('exit', (code) => {
          if (code !== 0) reject(new Error(`a validate worker stopped with code ${code}`));
        });
      });
    }),
  );
  let lineOffset = 0;
  let itemOffset = 0;
  for (const r of results) {
    for (const i of r.issues)
      found({
        line: i.line + lineOffset,
        event: i.event + itemOffset,
        pointer: i.pointer,
        message: i.message,
        ...(i.type ? { type: i.type } : {}),
      });
    lineOffset += r.lines;
    itemOffset += r.items;
  }
  return itemOffset;
}
