// `agentproto validate --workers N`: an NDJSON file checked against one type by N threads, the main thread and N - 1
// worker threads (worker.ts), which take byte ranges of the file (range.ts) one after another from a shared queue,
// with the issues renumbered from the start of the file.
import { open, stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { ProtocolVersion } from '../../protocols.js';
import { checkRange, type RangeResult, type RangeTask } from './range.js';
import { type InputIssue, type ItemCount, MAX_KEPT_ISSUES } from './reporters.js';

// The process's Node options, less those a worker thread refuses (`--input-type` of a process started with `-e`).
const WORKER_EXEC_ARGV = process.execArgv.filter((a) => !a.startsWith('--input-type'));

/** About how many bytes one range holds: small enough to share the work out evenly, large enough to cost nothing. */
const RANGE_BYTES = 8 * 1024 * 1024;

/** What the main thread sends a worker: a range to check, or `null` when there are no more. */
export type WorkerMessage = RangeTask | null;

/**
 * Checks an NDJSON file against one type with `workers` threads: the file is cut at line starts into ranges of about
 * 8 MB, each thread takes the next range as soon as it is done with one, and the issues come back renumbered from the
 * start of the file, in order. The main thread takes ranges too (it would only wait otherwise: N threads is what
 * `--workers N` asks for), and a thread that starts late or runs on a busy core simply takes fewer. Worker threads
 * run the built JavaScript of an installed CLI. Returns how many items the file holds and how many are invalid.
 */
export async function validateInWorkers(
  protocol: ProtocolVersion,
  file: string,
  type: string,
  workers: number,
  found: (issue: InputIssue) => void,
): Promise<ItemCount> {
  const size = (await stat(file)).size;
  const cuts = await lineStarts(file, size, Math.max(workers, Math.ceil(size / RANGE_BYTES)));
  const validate = protocol.validators[type];
  if (!validate) throw new Error(`no type ${type}`);
  const tasks: RangeTask[] = cuts.slice(0, -1).map((start, k) => ({
    file,
    start,
    end: cuts[k + 1] ?? size,
    protocol: `${protocol.protocol}@${protocol.version}`,
    type,
    maxIssues: MAX_KEPT_ISSUES,
  }));
  const results: RangeResult[] = new Array(tasks.length);
  // Each range goes once, in order, to whichever thread asks next: its index (where its result goes) and the task.
  const pending = tasks.entries();
  const take = (): [number, RangeTask] | undefined => {
    const next = pending.next();
    return next.done ? undefined : next.value;
  };

  // In the workspace the CLI runs from TypeScript sources through tsx; its workers must too.
  const source = import.meta.url.endsWith('.ts');
  const script = new URL(`./worker.${source ? 'ts' : 'js'}`, import.meta.url);
  const threads = Array.from(
    { length: Math.min(workers - 1, tasks.length - 1) },
    () =>
      new Promise<void>((resolve, reject) => {
        // A worker thread does not inherit tsx's loader: from sources, a small script registers it first.
        const worker = source
          ? new Worker(
              `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); });`,
              { eval: true },
            )
          : new Worker(script, { execArgv: WORKER_EXEC_ARGV });
        let current: number | undefined;
        const send = () => {
          const task = take();
          current = task?.[0];
          worker.postMessage((task === undefined ? null : task[1]) satisfies WorkerMessage);
        };
        worker.on('message', (r: RangeResult | 'ready') => {
          if (r !== 'ready' && current !== undefined) results[current] = r;
          send();
        });
        worker.once('error', reject);
        worker.once('exit', (code) => {
          if (code !== 0) reject(new Error(`a validate worker stopped with code ${code}`));
          else resolve();
        });
      }),
  );
  // The main thread's share: ranges until none are left.
  const own = (async () => {
    for (let task = take(); task !== undefined; task = take())
      results[task[0]] = await checkRange(task[1], validate);
  })();
  await Promise.all([own, ...threads]);

  let lineOffset = 0;
  let itemOffset = 0;
  let invalid = 0;
  for (const r of results) {
    for (const i of r.issues)
      found({
        line: i.line + lineOffset,
        event: i.event + itemOffset,
        pointer: i.pointer,
        message: i.message,
        ...(i.got === undefined ? {} : { got: i.got }),
        ...(i.type ? { type: i.type } : {}),
      });
    lineOffset += r.lines;
    itemOffset += r.items;
    invalid += r.invalid;
  }
  return { items: itemOffset, invalid };
}

/**
 * Cuts a file into `parts` byte ranges at line starts: each cut is the first line start at or after its share of the
 * bytes. Returns the cuts, from 0 to the size; ranges may be empty when lines are longer than a share.
 */
async function lineStarts(file: string, size: number, parts: number): Promise<number[]> {
  const cuts = [0];
  const handle = await open(file, 'r');
  const buffer = Buffer.alloc(64 * 1024);
  try {
    for (let k = 1; k < parts; k++) {
      let at = Math.max(Math.floor((size * k) / parts), cuts.at(-1) ?? 0);
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
  return cuts;
}
