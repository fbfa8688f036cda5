// `agentproto proxy` in front of an agent whose answers have no useful end: an event stream with one line that never
// ends, then a flood of events, and a JSON body far past what the proxy checks. The proxy's own accounting says what
// its checks hold (proxy.test.ts); this is the proof from outside: the command runs in its own process, as a user
// starts it, and the operating system's count of its resident memory (VmRSS, /proc/<pid>/status) is read as the bytes
// pass. Each answer is 256 MiB, 512 MiB in all; the agent stops there. Nothing is timed: the memory is sampled each
// time another 8 MiB have reached the client, and the bound is generous (what the proxy starts with, plus 150 MiB),
// well under either answer's size, so a proxy that held one whole would break it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/run-cli.js';
import { portOf } from '../support/typed.js';

const MiB = 1024 * 1024;
/** How much of each answer is the hostile part: the line that never ends, the body past every limit. */
const HOSTILE_BYTES = 256 * MiB;
/** How far above what the proxy started with its resident memory may go. */
const BOUND = 150 * MiB;
/** The client samples the proxy's memory each time this many more bytes have reached it. */
const SAMPLE_EVERY = 8 * MiB;

const USER = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'Hello' }] };
const TASK = { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } };
const EVENT = `data: ${JSON.stringify({ task: TASK })}\n\n`;
const UPDATE = `data: ${JSON.stringify({ statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } } })}\n\n`;

/** The resident memory of process `pid`, in bytes, as the kernel counts it. */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const line = status.split('\n').find((l) => l.startsWith('VmRSS:'));
  const kib = Number(line?.replace('VmRSS:', '').replace('kB', '').trim());
  if (!Number.isFinite(kib) || kib <= 0) throw new Error(`no VmRSS for process ${pid}`);
  return kib * 1024;
}

/** Writes `piece` again and again until `total` bytes have gone, at the pace the reader takes them. */
async function writeRepeated(res: ServerResponse, piece: Buffer, total: number): Promise<number> {
  let sent = 0;
  while (sent < total) {
    const part = total - sent >= piece.length ? piece : piece.subarray(0, total - sent);
    sent += part.length;
    if (!res.write(part)) await once(res, 'drain');
  }
  return sent;
}

/**
 * The agent: `POST /message:stream` answers an event stream (a task event, a data line of `x-size` bytes that ends
 * only then, then `x-size` / 8 bytes of small valid events); `POST /message:send` answers a JSON body of `x-size`
 * bytes. Each answer's body bytes are counted, and its last bytes kept, for the client to compare.
 */
function agent() {
  const sent: Array<{ bytes: number; tail: string }> = [];
  const server = http.createServer(async (req: IncomingMessage, res: ServerResponse) => {
    for await (const _ of req) {
      // The request's body is read, not used.
    }
    const size = Number(req.headers['x-size']);
    let bytes = 0;
    let tail = '';
    if (req.url === '/message:stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(EVENT);
      res.write('data: ');
      bytes = EVENT.length + 6;
      bytes += await writeRepeated(res, Buffer.alloc(64 * 1024, 'x'), size);
      res.write('\n\n');
      bytes += 2;
      bytes += await writeRepeated(
        res,
        Buffer.from(UPDATE.repeat(256)),
        Math.floor(size / 8 / UPDATE.length) * UPDATE.length,
      );
      tail = UPDATE;
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      const head = `{"task":${JSON.stringify(TASK)},"padding":"`;
      res.write(head);
      bytes = head.length + (await writeRepeated(res, Buffer.alloc(64 * 1024, 'y'), size));
      tail = 'y"}';
      res.write('"}');
      bytes += 2;
    }
    sent.push({ bytes, tail });
    res.end();
  });
  return { server, sent };
}

/** What reached the client through the proxy, and the most memory the proxy had as it did. */
interface Passed {
  bytes: number;
  tail: string;
  peakRss: number;
  samples: number;
}

/** Sends one request through the proxy and reads its answer whole, sampling the proxy's memory as the bytes come. */
async function through(proxyUrl: string, path: string, size: number, pid: number): Promise<Passed> {
  const body = JSON.stringify({ message: USER });
  const req = http.request(`${proxyUrl}${path}`, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'x-size': size,
    },
  });
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
    req.end(body);
  });
  const passed: Passed = { bytes: 0, tail: '', peakRss: 0, samples: 0 };
  let next = SAMPLE_EVERY;
  let last: Buffer = Buffer.alloc(0);
  for await (const chunk of res) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    passed.bytes += buf.length;
    last = buf.length >= 4096 ? buf : Buffer.concat([last, buf]).subarray(-4096);
    if (passed.bytes >= next) {
      next += SAMPLE_EVERY;
      passed.peakRss = Math.max(passed.peakRss, residentBytes(pid));
      passed.samples++;
    }
  }
  passed.tail = last.toString('latin1');
  return passed;
}

let target: ReturnType<typeof agent>;
let proxy: ChildProcess;
let proxyUrl = '';
let reports = '';

beforeAll(async () => {
  target = agent();
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  proxy = spawn(
    process.execPath,
    [
      BIN,
      'proxy',
      `http://127.0.0.1:${portOf(target.server)}`,
      '--protocol',
      'a2a@1.0',
      '--reporter',
      'json',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } },
  );
  // Reports are read as they come: a pipe left unread would stop the proxy once full.
  proxy.stdout?.on('data', (d: Buffer) => {
    reports += d;
  });
  let banner = '';
  proxyUrl = await new Promise<string>((resolve, reject) => {
    proxy.stderr?.on('data', (d: Buffer) => {
      banner += d;
      const url = /at (http:\/\/127\.0\.0\.1:[0-9]+) /.exec(banner)?.[1];
      if (url) resolve(url);
    });
    proxy.once('exit', (code) =>
      reject(new Error(`the proxy exited (${code}) before it listened: ${banner}`)),
    );
  });
});

afterAll(async () => {
  if (proxy && proxy.exitCode === null) {
    proxy.kill('SIGTERM');
    await once(proxy, 'exit');
  }
  await new Promise<void>((resolve) => (target ? target.server.close(() => resolve()) : resolve()));
});

describe('agentproto proxy > memory, measured from outside', () => {
  it('a 256 MiB line in an event stream and a 256 MiB JSON body pass whole while its resident memory stays bounded', async () => {
    const pid = proxy.pid ?? 0;
    // The same answers, small (still past each limit: a 4 MiB line, a 16 MiB body), first: every path the big ones
    // take is loaded, and what the proxy holds then is where it starts from.
    await through(proxyUrl, '/message:stream', 4 * MiB, pid);
    await through(proxyUrl, '/message:send', 16 * MiB, pid);
    const baseline = residentBytes(pid);

    const stream = await through(proxyUrl, '/message:stream', HOSTILE_BYTES, pid);
    const body = await through(proxyUrl, '/message:send', HOSTILE_BYTES, pid);

    // Every byte the agent sent reached the client, the last ones as they were sent.
    const [, , streamSent, bodySent] = target.sent;
    expect(stream.bytes).toBe(streamSent?.bytes);
    expect(stream.tail.endsWith(streamSent?.tail ?? '-')).toBe(true);
    expect(body.bytes).toBe(bodySent?.bytes);
    expect(body.tail.endsWith(bodySent?.tail ?? '-')).toBe(true);
    expect(stream.bytes + body.bytes).toBeGreaterThan(2 * HOSTILE_BYTES);
    // Sampled all along (a count of bytes, not of time).
    expect(stream.samples + body.samples).toBeGreaterThanOrEqual(
      Math.floor((2 * HOSTILE_BYTES) / SAMPLE_EVERY),
    );
    const peak = Math.max(stream.peakRss, body.peakRss);
    expect(
      peak - baseline,
      `resident memory ${Math.round(baseline / MiB)} MiB before, at most ${Math.round(peak / MiB)} MiB while the answers passed`,
    ).toBeLessThanOrEqual(BOUND);

    // The proxy checked what it could: the line too long to keep is reported, the body past its limit noted.
    proxy.kill('SIGTERM');
    const [code] = await once(proxy, 'exit');
    expect(code).toBe(1);
    expect(reports).toContain('longer than this reader keeps');
    expect(reports).toContain('limit bodyBytes');
  });
});
