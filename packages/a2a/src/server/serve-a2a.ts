// A2A's operations, free of any binding, served over both: HTTP+JSON (each operation's path, query and body read into
// its proto request message) and JSON-RPC (the params are that message). One typed operation set answers both, with
// A2A's version negotiation and errors in each binding's form.
import type { AppOptions, RequestLimits } from '@agentproto/runtime';
import { Hono } from 'hono';
import { A2aError, problemToRest, rpcErrorData } from '../errors/a2a-error.js';
import type {
  A2aHandlers,
  A2aRpcHandlers,
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  Empty,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '../generated/1.0/index.js';
import { createA2aApp, createA2aRpcApp } from '../generated/1.0/index.js';

/**
 * The protocol version the handler set is written in (the types and routes above are its generated code), as
 * `A2A-Version` and the card's `protocolVersion` spell it.
 */
export const A2A_PROTOCOL_VERSION = '1.0';

/** What an operation gets beside its request message: the HTTP request, and a signal that aborts when it goes away. */
export interface A2aCall {
  request: Request;
  signal: AbortSignal;
}

type Answer<T> = T | Promise<T>;

/**
 * A2A's operations (specification §3.1), each taking its proto request message and answering its response message,
 * whatever the binding. Throw an A2aError for A2A's errors. Streaming operations answer an async iterable of events.
 */
export interface A2aOperations {
  /** The public agent card (`GET /.well-known/agent-card.json`); `request` tells the URL it was asked at. */
  agentCard(request: Request): Answer<AgentCard>;
  sendMessage(params: SendMessageRequest, call: A2aCall): Answer<SendMessageResponse>;
  sendStreamingMessage(params: SendMessageRequest, call: A2aCall): Answer<AsyncIterable<StreamResponse>>;
  getTask(params: GetTaskRequest, call: A2aCall): Answer<Task>;
  listTasks(params: ListTasksRequest, call: A2aCall): Answer<ListTasksResponse>;
  cancelTask(params: CancelTaskRequest, call: A2aCall): Answer<Task>;
  subscribeToTask(params: SubscribeToTaskRequest, call: A2aCall): Answer<AsyncIterable<StreamResponse>>;
  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    call: A2aCall,
  ): Answer<TaskPushNotificationConfig>;
  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    call: A2aCall,
  ): Answer<TaskPushNotificationConfig>;
  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    call: A2aCall,
  ): Answer<ListTaskPushNotificationConfigsResponse>;
  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    call: A2aCall,
  ): Answer<Empty>;
  getExtendedAgentCard(params: GetExtendedAgentCardRequest, call: A2aCall): Answer<AgentCard>;
}

/** Options of serveA2a. */
export interface ServeA2aOptions {
  /** The JSON-RPC endpoint's path (default `/jsonrpc`); HTTP+JSON is served at the root. */
  rpcPath?: string;
  /**
   * What a request without an `A2A-Version` header (or query parameter) means. The specification says 0.3, which this
   * server does not speak, so such a request is refused with VersionNotSupportedError; set `'1.0'` to take it as 1.0.
   */
  assumeVersion?: string;
  /** Told about failures the client sees only as a generic error. */
  onError?: (error: unknown, where: string) => void;
  /** Request limits, as for every generated server. */
  limits?: Partial<RequestLimits>;
  /** Check answers against the schemas (default: on unless NODE_ENV is `production`). */
  validateResponses?: boolean;
  /** An existing app to add the routes to. */
  app?: Hono;
}

/** Serves A2A's operations over HTTP+JSON (at the root) and JSON-RPC (at `rpcPath`) on one Hono app. */
export function serveA2a(operations: A2aOperations, options: ServeA2aOptions = {}): Hono {
  const onError = options.onError ?? ((error: unknown, where: string) => console.error(`[${where}]`, error));
  const assumed = options.assumeVersion;
  /** Every operation but the card: the version is checked first. */
  const call =
    <P, R>(operation: (params: P, call: A2aCall) => Answer<R>) =>
    (params: P, c: A2aCall): Answer<R> => {
      checkVersion(c.request, assumed);
      return operation.call(operations, params, c);
    };
  const op = {
    sendMessage: call(operations.sendMessage),
    sendStreamingMessage: call(operations.sendStreamingMessage),
    getTask: call(operations.getTask),
    listTasks: call(operations.listTasks),
    cancelTask: call(operations.cancelTask),
    subscribeToTask: call(operations.subscribeToTask),
    createTaskPushNotificationConfig: call(operations.createTaskPushNotificationConfig),
    getTaskPushNotificationConfig: call(operations.getTaskPushNotificationConfig),
    listTaskPushNotificationConfigs: call(operations.listTaskPushNotificationConfigs),
    deleteTaskPushNotificationConfig: call(operations.deleteTaskPushNotificationConfig),
    getExtendedAgentCard: call(operations.getExtendedAgentCard),
  };

  // HTTP+JSON: the path, query and body make the request message (§11.3-11.5); an A2aError becomes its status and
  // ErrorResponse, anything else the runtime answers as a 500.
  interface RestInput {
    request: Request;
    signal: AbortSignal;
    params: Record<string, string>;
    query: Record<string, unknown>;
    body: unknown;
  }
  const rest =
    <P, R>(operation: (params: P, c: A2aCall) => Answer<R>, toParams: (input: RestInput) => P) =>
    async (input: RestInput) => {
      try {
        return {
          status: 200,
          body: await operation(toParams(input), { request: input.request, signal: input.signal }),
        };
      } catch (error) {
        if (error instanceof A2aError) return error.toRest();
        throw error;
      }
    };
  const body = (i: RestInput) => (i.body ?? {}) as Record<string, unknown>;
  const subscribe = rest(op.subscribeToTask, (i) => ({ id: i.params.id ?? '' }));
  const restHandlers = {
    getAgentCard: async ({ request }: RestInput) => ({
      status: 200,
      body: await operations.agentCard(request),
    }),
    sendMessage: rest(op.sendMessage, (i) => i.body as SendMessageRequest),
    sendStreamingMessage: rest(op.sendStreamingMessage, (i) => i.body as SendMessageRequest),
    getTask: rest(op.getTask, (i) => ({ ...i.query, id: i.params.id ?? '' }) as GetTaskRequest),
    listTasks: rest(op.listTasks, (i) => i.query as ListTasksRequest),
    cancelTask: rest(op.cancelTask, (i) => ({ ...body(i), id: i.params.id ?? '' }) as CancelTaskRequest),
    subscribeToTask: subscribe,
    subscribeToTaskByPost: subscribe,
    createTaskPushNotificationConfig: rest(
      op.createTaskPushNotificationConfig,
      (i) => ({ ...body(i), taskId: i.params.taskId ?? '' }) as TaskPushNotificationConfig,
    ),
    getTaskPushNotificationConfig: rest(op.getTaskPushNotificationConfig, (i) => ({
      taskId: i.params.taskId ?? '',
      id: i.params.id ?? '',
    })),
    listTaskPushNotificationConfigs: rest(
      op.listTaskPushNotificationConfigs,
      (i) => ({ ...i.query, taskId: i.params.taskId ?? '' }) as ListTaskPushNotificationConfigsRequest,
    ),
    deleteTaskPushNotificationConfig: rest(op.deleteTaskPushNotificationConfig, (i) => ({
      taskId: i.params.taskId ?? '',
      id: i.params.id ?? '',
    })),
    getExtendedAgentCard: rest(op.getExtendedAgentCard, () => ({})),
  } as unknown as A2aHandlers;

  // JSON-RPC: the params are the request message; an A2aError is a JsonRpcError already (its code and ErrorInfo).
  const rpc =
    <P, R>(operation: (params: P, c: A2aCall) => Answer<R>) =>
    (params: unknown, context: { request: Request; signal: AbortSignal }) =>
      operation(params as P, {
        request: context.request,
        get signal() {
          return context.signal;
        },
      });
  const rpcHandlers = {
    SendMessage: rpc(op.sendMessage),
    SendStreamingMessage: rpc(op.sendStreamingMessage),
    GetTask: rpc(op.getTask),
    ListTasks: rpc(op.listTasks),
    CancelTask: rpc(op.cancelTask),
    SubscribeToTask: rpc(op.subscribeToTask),
    CreateTaskPushNotificationConfig: rpc(op.createTaskPushNotificationConfig),
    GetTaskPushNotificationConfig: rpc(op.getTaskPushNotificationConfig),
    ListTaskPushNotificationConfigs: rpc(op.listTaskPushNotificationConfigs),
    DeleteTaskPushNotificationConfig: rpc(op.deleteTaskPushNotificationConfig),
    GetExtendedAgentCard: rpc(op.getExtendedAgentCard),
  } as unknown as A2aRpcHandlers;

  const app = options.app ?? new Hono();
  const shared: Pick<AppOptions, 'limits'> = options.limits ? { limits: options.limits } : {};
  createA2aRpcApp(rpcHandlers, {
    app,
    path: options.rpcPath ?? '/jsonrpc',
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
    ...(options.validateResponses === undefined ? {} : { validateResponses: options.validateResponses }),
  });
  return app;
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
