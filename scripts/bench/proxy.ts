// `agentproto proxy`'s overhead: requests/s through the proxy (its own process, as users run it, checking both
// directions) against the same agent answered directly, measured in the same rounds under load from autocannon. A
// POST whose body and answer are checked (Agent Protocol createAgentTask, the generated stub), and an SSE answer of
// 100 events, each checked with the stream rules (AgentScope 1.1 /process, the generated endpoint).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createAgentProtocolApp } from '@agentproto/agent-protocol';
import { createReferenceHandlers, TaskStore } from '@agentproto/agent-protocol/reference-agent';
import { createAgent } from '@agentproto/agentscope/1.1';
import { type LocalServer, serveLocal } from '@agentproto/runtime';
import { load, median } from './http.js';
import { formatRatio, ratio } from './timing.js';
import type { Row } from './validators.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'packages/cli/bin/agentproto.js');
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_PROXY_ROUNDS ?? 7);
const WARM_UP_SECONDS = 2;

/** Starts `agentproto proxy` in front of `target`; resolves with its URL once it listens. */
function startProxy(target: string, protocol: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'proxy', target, '--protocol', protocol], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let invalid = 0;
  // Every message of the bench is valid: a report on standard output is a broken benchmark.
  child.stdout?.on('data', (d: Buffer) => {
    invalid++;
    output += d;
  });
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      output += d;
      const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url && invalid === 0) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`agentproto proxy exited with ${code}:\n${output}`)));
  });
}

/** Stops a proxy and says whether it reported anything (it must not: every message here is valid). */
async function stopProxy(proxy: { child: ChildProcess }): Promise<string> {
  let out = '';
  proxy.child.stdout?.on('data', (d: Buffer) => {
    out += d;
  });
  const exited = new Promise((resolve) => proxy.child.once('exit', resolve));
  proxy.child.kill('SIGINT');
  await exited;
  return out;
}

/** CPU seconds a process has used (Linux `/proc/<pid>/stat`, user + system, at 100 ticks a second), or NaN. */
function cpuSeconds(pid: number | undefined): number {
  try {
    // The fields after the command name (in parentheses): utime and stime are the 12th and 13th of them.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Requests/s of the agent directly and through the proxy, in rounds that alternate which goes first; and, as a
 * measure the machine's load moves less, the CPU time per request of the agent (this process, direct rounds) and of
 * the proxy (its process, proxied rounds).
 */
async function measure(
  direct: string,
  proxied: string,
  body: string,
  proxyPid: number | undefined,
): Promise<{ direct: number[]; proxied: number[]; cpuRatio: number }> {
  await load(direct, body, WARM_UP_SECONDS);
  await load(proxied, body, WARM_UP_SECONDS);
  const out: { direct: number[]; proxied: number[] } = { direct: [], proxied: [] };
  const cpu = { agent: 0, proxy: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
    for (const which of order) {
      const own = process.cpuUsage();
      const child = cpuSeconds(proxyPid);
      out[which].push(await load(which === 'direct' ? direct : proxied, body, SECONDS));
      const used = process.cpuUsage(own);
      if (which === 'direct') cpu.agent += (used.user + used.system) / 1e6;
      else cpu.proxy += cpuSeconds(proxyPid) - child;
    }
  }
  const served = (rates: number[]) => rates.reduce((a, b) => a + b, 0) * SECONDS;
  return { ...out, cpuRatio: cpu.proxy / served(out.proxied) / (cpu.agent / served(out.direct)) };
}

async function benchOne(
  agent: LocalServer,
  protocol: string,
  route: string,
  body: string,
): Promise<{ direct: number[]; proxied: number[]; cpuRatio: number; reported: string }> {
  const proxy = await startProxy(agent.url, protocol);
  try {
    const runs = await measure(`${agent.url}${route}`, `${proxy.url}${route}`, body, proxy.child.pid);
    return { ...runs, reported: await stopProxy(proxy) };
  } catch (error) {
    await stopProxy(proxy);
    throw error;
  } finally {
    agent.server.close();
  }
}

export async function benchProxy(): Promise<Row[]> {
  const stub = await serveLocal(
    createAgentProtocolApp(createReferenceHandlers(new TaskStore()), { validateResponses: false }).fetch,
    0,
  );
  const post = await benchOne(stub, 'agent-protocol', '/ap/v1/agent/tasks', '{"input":"Write the word ok"}');
  const EVENTS = 100;
  const sse = await serveLocal(
    createAgent({
      async *run() {
        // With the response and message events around them: 100 events per answer, as in the http section.
        for (let i = 0; i < EVENTS - 6; i++) yield { type: 'text', delta: `word${i} ` };
      },
      app: { validateResponses: false },
    }).fetch,
    0,
  );
  const streams = await benchOne(
    sse,
    'agentscope@1.1',
    '/process',
    JSON.stringify({ input: [{ role: 'user', content: [{ type: 'text', text: 'bench' }] }] }),
  );
  for (const [name, run] of [
    ['POST', post],
    ['SSE', streams],
  ] as const)
    if (run.reported.trim() !== '')
      throw new Error(`the proxy reported on valid ${name} traffic:\n${run.reported}`);
  const postRatio = ratio(post.proxied, post.direct);
  const sseRatio = ratio(streams.proxied, streams.direct);
  const notes = (r: { direct: number[]; cpuRatio: number }) =>
    `the proxy's CPU time per request is ${r.cpuRatio.toFixed(2)}× the agent's (the agent's process in the direct rounds, the proxy's in the proxied ones); direct ${Math.round(median(r.direct))} req/s; ${ROUNDS} rounds of ${SECONDS} s, 10 connections; three busy processes (the proxy, the agent in the bench's process, autocannon) on this machine's cores`;
  return [
    {
      measure:
        'agentproto proxy, POST with validation of request and answer (Agent Protocol createAgentTask), requests/s ÷ direct',
      result: formatRatio(postRatio),
      target: '≥ 0.7×',
      met: postRatio.median >= 0.7,
      notes: notes(post),
    },
    {
      measure: `agentproto proxy, SSE answer of ${EVENTS} events each checked with the stream rules (AgentScope 1.1 /process), requests/s ÷ direct`,
      result: formatRatio(sseRatio),
      target: '≥ 0.7×',
      met: sseRatio.median >= 0.7,
      notes: notes(streams),
    },
  ];
}
