// Our conformance kit against an agent built with the official A2A SDK's own server classes (@a2a-js/sdk, pinned:
// DefaultRequestHandler behind its Express JSON-RPC and REST handlers), and the SDK server's traffic, captured,
// checked with `agentproto validate --protocol a2a`.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AGENT_CARD_PATH,
  AgentCard,
  Message,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import { type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { runConformance } from '@agentproto/conformance';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCollected } from '../support/run-cli.js';
import { portOf, prop, stringAt } from '../support/typed.js';

/**
 * Where the SDK's server departs from the specification, by check id, with the section it breaks. The test fails when
 * one of these starts passing, or another check fails: the list stays true.
 */
const SDK_DEVIATIONS: Readonly<Record<string, string>> = {
  // Found by the schema-driven checks (--fuzz): the REST handler does not check what it is sent.
  'a2a.fuzz.invalid':
    '§3.3.2, §5.4: a message without role, or with a role that is not a string, and a historyLength over int32 are taken (200), not refused with 400',
  'a2a.fuzz.declared': '§4.1.4: the answer to such a request echoes the message back, still without its role',
  'a2a.fuzz.valid':
    '§4.1.1: tasks stored from those requests are served back by GetTask and ListTasks breaking the Task schema',
};

const servers: Server[] = [];
let base: string;
const quiet = console.error;

/** A server built with the SDK's classes, on 127.0.0.1 (port 0), with a task store of its own. */
async function startSdkServer(): Promise<string> {
  const app = express();
  const listening = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(listening);
  const base = `http://127.0.0.1:${portOf(listening)}`;
  const card = AgentCard.fromJSON({
    name: 'SDK trip planner',
    description: 'An agent built with the A2A SDK server classes.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'plan', name: 'Plan a trip', description: 'Plans trips.', tags: ['travel'] }],
  });
  const now = () => new Date().toISOString();
  // The SDK's own pattern: the task first, then working, an artifact, and the final status.
  const executor: AgentExecutor = {
    async execute(ctx, bus) {
      const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
      if (!ctx.task)
        bus.publish({
          kind: 'task',
          data: Task.fromJSON({
            id: ctx.taskId,
            contextId: ctx.contextId,
            status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() },
            history: [Message.toJSON(ctx.userMessage)],
          }),
        });
      bus.publish({
        kind: 'statusUpdate',
        data: TaskStatusUpdateEvent.fromJSON({
          ...ids,
          status: { state: 'TASK_STATE_WORKING', timestamp: now() },
        }),
      });
      bus.publish({
        kind: 'artifactUpdate',
        data: TaskArtifactUpdateEvent.fromJSON({
          ...ids,
          artifact: { artifactId: 'plan', parts: [{ text: 'Day 1: walk the old town.' }] },
          lastChunk: true,
        }),
      });
      bus.publish({
        kind: 'statusUpdate',
        data: TaskStatusUpdateEvent.fromJSON({
          ...ids,
          status: { state: 'TASK_STATE_COMPLETED', timestamp: now() },
        }),
      });
      bus.finished();
    },
    async cancelTask(taskId, bus) {
      bus.publish({
        kind: 'statusUpdate',
        data: TaskStatusUpdateEvent.fromJSON({
          taskId,
          contextId: '',
          status: { state: 'TASK_STATE_CANCELED', timestamp: now() },
        }),
      });
      bus.finished();
    },
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return base;
}

beforeAll(async () => {
  // The SDK's handlers log every refusal they send with console.error; the refusals are what the kit asks for.
  console.error = () => {};
  base = await startSdkServer();
});
afterAll(() => {
  console.error = quiet;
  for (const s of servers) s.close();
});

describe('e2e > the conformance kit against a server built with the A2A SDK', () => {
  it('kit > passes what the SDK implements; every failure is a listed deviation', async () => {
    // A server of its own: the schema-driven requests leave tasks the SDK accepted without checking them.
    const report = await runConformance({
      protocol: 'a2a',
      target: await startSdkServer(),
      timeoutMs: 5_000,
      fuzz: { requests: 300, seed: 1 },
    });
    const failed = Object.fromEntries(
      report.checks.filter((c) => c.status === 'fail').map((c) => [c.id, c.message]),
    );
    expect(Object.keys(failed).sort(), JSON.stringify(failed, null, 2)).toEqual(
      Object.keys(SDK_DEVIATIONS).sort(),
    );
    expect(report.checks.filter((c) => c.status === 'skip')).toEqual([]);
    expect(report.summary.messagesValidated).toBeGreaterThan(20);
  });

  it('validate > the SDK server traffic, captured, passes agentproto validate --protocol a2a', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'a2a-sdk-traffic-'));
    try {
      const V = { 'A2A-Version': '1.0', 'content-type': 'application/json' };
      const send = {
        message: { messageId: 'capture-1', role: 'ROLE_USER', parts: [{ text: 'Plan a trip to Lisbon' }] },
      };
      const save = async (type: string, name: string, text: string) => {
        await mkdir(path.join(dir, type), { recursive: true });
        await writeFile(path.join(dir, type, name), text);
      };
      await save('AgentCard', 'card.json', await (await fetch(`${base}/.well-known/agent-card.json`)).text());
      const sent = await (
        await fetch(`${base}/a2a/rest/message:send`, {
          method: 'POST',
          headers: V,
          body: JSON.stringify(send),
        })
      ).text();
      await save('SendMessageResponse', 'rest-send.json', sent);
      const taskId = stringAt(prop(JSON.parse(sent), 'task'), 'id');
      await save(
        'Task',
        'rest-get.json',
        await (await fetch(`${base}/a2a/rest/tasks/${taskId}`, { headers: V })).text(),
      );
      await save(
        'ListTasksResponse',
        'rest-list.json',
        await (await fetch(`${base}/a2a/rest/tasks`, { headers: V })).text(),
      );
      await save(
        'ErrorResponse',
        'rest-not-found.json',
        await (await fetch(`${base}/a2a/rest/tasks/nope`, { headers: V })).text(),
      );
      await save(
        'StreamResponse',
        'rest-stream.sse',
        await (
          await fetch(`${base}/a2a/rest/message:stream`, {
            method: 'POST',
            headers: V,
            body: JSON.stringify({ message: { ...send.message, messageId: 'capture-2' } }),
          })
        ).text(),
      );
      const rpc = (method: string, params: unknown) =>
        fetch(`${base}/a2a/jsonrpc`, {
          method: 'POST',
          headers: V,
          body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
        }).then((r) => r.text());
      await save('JsonRpcResponse', 'rpc-get.json', await rpc('GetTask', { id: taskId }));
      await save('JsonRpcResponse', 'rpc-not-found.json', await rpc('GetTask', { id: 'nope' }));
      await save(
        'StreamResponse',
        'rpc-stream.sse',
        await rpc('SendStreamingMessage', { message: { ...send.message, messageId: 'capture-3' } }),
      );
      const result = await runCollected(['validate', dir, '--protocol', 'a2a']);
      // Seven documents counted by file, the two captured streams by item.
      expect(result.out + result.err).toMatch(
        /\b7 valid, 0 invalid documents; 0 of \d+ items invalid in 2 streams \(a2a@1\.0\)/,
      );
      expect(result.code, result.out + result.err).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
