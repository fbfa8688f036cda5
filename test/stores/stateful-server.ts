// Starts and kills the server processes of the durability proofs (fixtures/serve-stateful.ts), and reads their SSE.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { readFrames } from '@agentproto/runtime';
import { chunksOf } from '../support/typed.js';

const FIXTURE = path.join(import.meta.dirname, 'fixtures/serve-stateful.ts');

/** A running server process. */
export interface StatefulServer {
  draft: string;
  apv1: string;
  a2a: string;
  child: ChildProcess;
  /** Kills it with a signal and waits for it to be gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts a server process on a store under an instance name; answers once both URLs are printed (within 60 s). */
export async function startServer(store: string, instance: string): Promise<StatefulServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', FIXTURE, '--store', store, '--instance', instance],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'development' },
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const urls = await new Promise<{ draft: string; apv1: string; a2a: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 60_000);
    child.stderr?.on('data', (d) => {
      output += d;
    });
    child.stdout?.on('data', (d) => {
      output += d;
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}):\n${output}`));
    });
  });
  return {
    ...urls,
    child,
    async kill(signal) {
      child.kill(signal);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    },
  };
}

/** An event as the SSE stream carried it: its `id:` and its parsed data. */
export interface Received {
  id: number;
  event: { id: number; type: string; request_id?: string; content?: string; finish_reason?: string };
}

/**
 * Reads an SSE response's events, handing each to `onEvent` (which answers true to stop). Ends when the stream ends
 * or breaks (a killed server); never throws for a broken stream.
 */
export async function readEvents(
  response: Response,
  onEvent: (r: Received) => boolean | undefined,
): Promise<void> {
  if (!response.body) return;
  try {
    for await (const frame of readFrames(chunksOf(response.body), 'sse')) {
      // sound: the fixture server streams the draft's AgentEvents, each an object with its id and type and, by type,
      // the request_id, content or finish_reason that Received names.
      const event = JSON.parse(frame.data) as Received['event'];
      if (onEvent({ id: Number(frame.id), event })) break;
    }
  } catch {
    // The server went away mid-stream.
  }
}

/** POSTs JSON and answers the response. */
export function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
