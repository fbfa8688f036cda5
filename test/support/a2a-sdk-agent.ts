// An A2A agent built with the official SDK's own server classes (@a2a-js/sdk, pinned: DefaultRequestHandler behind
// its Express JSON-RPC and REST handlers), on 127.0.0.1, for the tests that prove our clients and our kit against an
// implementation nobody here wrote. Every task it is sent completes the SDK's way: the task, working, one artifact,
// completed. With `legacyCompat` it answers 0.3 as well (a request without A2A-Version), and its card lists the 0.3
// interfaces beside the 1.0 ones.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import express from 'express';

export interface SdkAgent {
  /** The server's root: the card is at `/.well-known/agent-card.json`, the interfaces under `/a2a/`. */
  base: string;
  close(): void;
}

const now = () => new Date().toISOString();

/** The SDK's own pattern of a task's life: the task first, then working, an artifact, and the final status. */
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

/** Starts the SDK agent on a free port; with `legacyCompat`, it serves 0.3 beside 1.0. */
export async function startSdkAgent(options: { legacyCompat: boolean }): Promise<SdkAgent> {
  const app = express();
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // sound: a server listening on a TCP port reports its address as an AddressInfo (a string only for a pipe).
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const versions = options.legacyCompat ? ['1.0', '0.3'] : ['1.0'];
  const card = AgentCard.fromJSON({
    name: 'SDK trip planner',
    description: `An agent built with the A2A SDK server classes, speaking ${versions.join(' and ')}.`,
    version: '1.0.0',
    supportedInterfaces: versions.flatMap((protocolVersion) => [
      { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion },
      { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion },
    ]),
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'plan', name: 'Plan a trip', description: 'Plans trips.', tags: ['travel'] }],
  });
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const legacy = options.legacyCompat ? { legacyCompat: { enabled: true } } : {};
  const rpc = { requestHandler: handler, userBuilder: UserBuilder.noAuthentication, ...legacy };
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler, ...legacy }));
  app.use('/a2a/jsonrpc', jsonRpcHandler(rpc));
  app.use('/a2a/rest', restHandler(rpc));
  return { base, close: () => server.close() };
}
