// One A2A agent served over both bindings from one TaskManager: HTTP+JSON at the root (with the agent card at
// `/.well-known/agent-card.json`) and JSON-RPC at one endpoint, each answering A2A's errors in its own form.
import type { AgentStore, AppOptions, RequestLimits } from '@agentproto/runtime';
import { Hono } from 'hono';
import type { A2aAgent } from '../agent/agent.js';
import { TaskManager } from '../agent/task-manager.js';
import { A2aError, problemToRest, rpcErrorData } from '../errors/a2a-error.js';
import type { A2aHandlers, A2aRpcHandlers, AgentCard, SendMessageRequest } from '../generated/1.0/index.js';
import { createA2aApp, createA2aRpcApp } from '../generated/1.0/index.js';

/** The protocol version this package serves, as `A2A-Version` and the card's `protocolVersion` spell it. */
export const A2A_PROTOCOL_VERSION = '1.0';

/** Options of createA2aServer. */
export interface A2aServerOptions {
  /** Where tasks live (default: in memory). Share one store between processes to scale out. */
  store?: AgentStore;
  /** The JSON-RPC endpoint's path (default `/jsonrpc`). */
  rpcPath?: string;
  /**
   * The agent's public root URL, for the card's interfaces (default: the origin each card request arrives at). Set it
   * behind a proxy.
   */
  publicUrl?: string;
  /**
   * What a request without an `A2A-Version` header (or query parameter) means. The specification says 0.3, which this
   * server does not speak, so such a request is refused with VersionNotSupportedError; set `'1.0'` to take it as 1.0.
   */
  assumeVersion?: string;
  /** Told about failures the client sees only as a generic error (an agent's turn that throws, say). */
  onError?: (error: unknown, where: string) => void;
  /** Request limits, as for every generated server. */
  limits?: Partial<RequestLimits>;
  /** Check answers against the schemas (default: on unless NODE_ENV is `production`). */
  validateResponses?: boolean;
  /** The card a client sees after authenticating (GetExtendedAgentCard); without one the call is refused. */
  extendedCard?: AgentCard;
}

/** An A2A server: the Hono app, and the task manager behind it. */
export interface A2aServer {
  app: Hono;
  manager: TaskManager;
}

/** Serves an agent over HTTP+JSON and JSON-RPC. */
export function createA2aServer(agent: A2aAgent, options: A2aServerOptions = {}): A2aServer {
  const onError = options.onError ?? ((error: unknown, where: string) => console.error(`[${where}]`, error));
  const manager = new TaskManager(agent, {
    ...(options.store ? { store: options.store } : {}),
    onError: (error, taskId) => onError(error, `task ${taskId}`),
  });
  const rpcPath = options.rpcPath ?? '/jsonrpc';
  const assumed = options.assumeVersion;
  const streaming = agent.card.capabilities.streaming !== false;

  const cardFor = (request: Request): AgentCard => {
    const root = (options.publicUrl ?? new URL(request.url).origin).replace(/\/$/, '');
    return {
      ...agent.card,
      supportedInterfaces: agent.card.supportedInterfaces ?? [
        { url: `${root}${rpcPath}`, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION },
        { url: root, protocolBinding: 'HTTP+JSON', protocolVersion: A2A_PROTOCOL_VERSION },
      ],
    } as AgentCard;
  };
  const check = (request: Request, send?: SendMessageRequest, stream = false) => {
    checkVersion(request, assumed);
    if (stream && !streaming) throw new A2aError('UNSUPPORTED_OPERATION', 'this agent does not stream');
    if (send?.configuration?.taskPushNotificationConfig)
      throw new A2aError('PUSH_NOTIFICATION_NOT_SUPPORTED');
  };
  const noPush = (request: Request): never => {
    checkVersion(request, assumed);
    throw new A2aError('PUSH_NOTIFICATION_NOT_SUPPORTED');
  };
  const extended = (request: Request): AgentCard => {
    checkVersion(request, assumed);
    if (!options.extendedCard) throw new A2aError('EXTENDED_AGENT_CARD_NOT_CONFIGURED');
    return options.extendedCard;
  };

  // HTTP+JSON: an A2aError becomes its status and ErrorResponse; anything else the runtime answers as a 500.
  const rest = <I extends { request: Request }>(work: (input: I) => Promise<unknown> | unknown) =>
    (async (input: I) => {
      try {
        const body = await work(input);
        return { status: 200, body };
      } catch (error) {
        if (error instanceof A2aError) return error.toRest();
        throw error;
      }
    }) as never;
  const subscribe = rest<{ request: Request; params: { id: string } }>(async ({ request, params }) => {
    check(request, undefined, true);
    return manager.subscribe(params.id);
  });
  const restHandlers: A2aHandlers = {
    getAgentCard: rest(({ request }) => cardFor(request)),
    sendMessage: rest<{ request: Request; body: SendMessageRequest; signal: AbortSignal }>(
      ({ request, body, signal }) => {
        check(request, body);
        return manager.send(body, signal);
      },
    ),
    sendStreamingMessage: rest<{ request: Request; body: SendMessageRequest }>(({ request, body }) => {
      check(request, body, true);
      return manager.stream(body);
    }),
    getTask: rest<{ request: Request; params: { id: string }; query: { historyLength?: number } }>(
      ({ request, params, query }) => {
        check(request);
        return manager.get(params.id, query.historyLength);
      },
    ),
    listTasks: rest<{ request: Request; query: Record<string, unknown> }>(({ request, query }) => {
      check(request);
      return manager.list(query);
    }),
    cancelTask: rest<{ request: Request; params: { id: string } }>(({ request, params }) => {
      check(request);
      return manager.cancel(params.id);
    }),
    subscribeToTask: subscribe,
    subscribeToTaskByPost: subscribe,
    createTaskPushNotificationConfig: rest(({ request }) => noPush(request)),
    getTaskPushNotificationConfig: rest(({ request }) => noPush(request)),
    listTaskPushNotificationConfigs: rest(({ request }) => noPush(request)),
    deleteTaskPushNotificationConfig: rest(({ request }) => noPush(request)),
    getExtendedAgentCard: rest(({ request }) => extended(request)),
  };
  // JSON-RPC: an A2aError is a JsonRpcError already, answered with its code and ErrorInfo.
  const rpcHandlers: A2aRpcHandlers = {
    SendMessage: (params, { request, signal }) => {
      check(request, params as SendMessageRequest);
      return manager.send(params as SendMessageRequest, signal);
    },
    SendStreamingMessage: (params, { request }) => {
      check(request, params as SendMessageRequest, true);
      return manager.stream(params as SendMessageRequest);
    },
    GetTask: (params, { request }) => {
      check(request);
      return manager.get(params.id, params.historyLength);
    },
    ListTasks: (params, { request }) => {
      check(request);
      return manager.list(params as never);
    },
    CancelTask: (params, { request }) => {
      check(request);
      return manager.cancel(params.id);
    },
    SubscribeToTask: (params, { request }) => {
      check(request, undefined, true);
      return manager.subscribe(params.id);
    },
    CreateTaskPushNotificationConfig: (_, { request }) => noPush(request),
    GetTaskPushNotificationConfig: (_, { request }) => noPush(request),
    ListTaskPushNotificationConfigs: (_, { request }) => noPush(request),
    DeleteTaskPushNotificationConfig: (_, { request }) => noPush(request),
    GetExtendedAgentCard: (_, { request }) => extended(request) as never,
  } as A2aRpcHandlers;

  const app = new Hono();
  const shared: Pick<AppOptions, 'limits' | 'validateResponses'> = {
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.validateResponses === undefined ? {} : { validateResponses: options.validateResponses }),
  };
  createA2aRpcApp(rpcHandlers, {
    app,
    path: rpcPath,
    errorData: rpcErrorData,
    onError: (error, method) => onError(error, method),
    ...shared,
    ...(options.validateResponses === undefined ? {} : { validateResults: options.validateResponses }),
  });
  createA2aApp(restHandlers, {
    app,
    onError: (error, operation) => onError(error, operation),
    errorBody: problemToRest,
    ...shared,
  });
  return { app, manager };
}

/**
 * VERSION_NOT_SUPPORTED unless the request asks for A2A 1.0 (specification §3.6.2): by the `A2A-Version` header or
 * query parameter, `Major.Minor`, a patch number ignored. No version at all means 0.3 unless `assumed` says otherwise.
 */
export function checkVersion(request: Request, assumed?: string): void {
  const asked =
    request.headers.get('a2a-version') ?? new URL(request.url).searchParams.get('A2A-Version') ?? '';
  const version = asked.trim() === '' ? (assumed ?? '0.3') : asked.trim();
  const [major, minor = '0'] = version.split('.');
  if (major !== '1' || minor !== '0')
    throw new A2aError(
      'VERSION_NOT_SUPPORTED',
      `this agent speaks A2A ${A2A_PROTOCOL_VERSION}, not ${version}`,
      {
        requested: version,
        supported: A2A_PROTOCOL_VERSION,
      },
    );
}
