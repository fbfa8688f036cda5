// A2A's operations, free of any binding, served over both: HTTP+JSON (each operation's path, query and body read into
// its proto request message) and JSON-RPC (the params are that message). One typed operation set answers both, with
// A2A's version negotiation and errors in each binding's form.
import { type AppOptions, type RequestLimits, readLimitedBytes, resolveLimits } from '@agentproto/runtime';
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
import { PATHS } from '../generated/1.0/paths.js';
import { TRANSLATIONS } from '../generated/translations.js';
import { cardForEveryVersion } from './card-versions.js';
import { translatedVersions } from './translated-versions.js';

/**
 * The protocol version the handler set is written in (the types and routes above are its generated code), as
 * `A2A-Version` and the card's `protocolVersion` spell it.
 */
export const A2A_PROTOCOL_VERSION = '1.0';

/** Every version serveA2a answers: the handler set's own, then those it reaches through a translation. */
export const SERVED_VERSIONS: readonly string[] = [A2A_PROTOCOL_VERSION, ...Object.keys(TRANSLATIONS)];

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
   * What a request without an `A2A-Version` header (or query parameter) means. The specification says 0.3 (§3.6.2),
   * which this server answers through its 0.3 translation; set `'1.0'` to take such requests as 1.0.
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
  const rpcPath = options.rpcPath ?? '/jsonrpc';
  /** Every operation but the card, as 1.0 serves it: the version is checked first. */
  const checked =
    <P, R>(operation: (params: P, call: A2aCall) => Answer<R>) =>
    (params: P, c: A2aCall): Answer<R> => {
      checkVersion(c.request, assumed);
      return operation.call(operations, params, c);
    };
  /** The same operation for a version served through a translation: the request already chose it. */
  const unchecked =
    <P, R>(operation: (params: P, call: A2aCall) => Answer<R>) =>
    (params: P, c: A2aCall): Answer<R> =>
      operation.call(operations, params, c);
  const opsWith = (wrap: typeof checked) => ({
    sendMessage: wrap(operations.sendMessage),
    sendStreamingMessage: wrap(operations.sendStreamingMessage),
    getTask: wrap(operations.getTask),
    listTasks: wrap(operations.listTasks),
    cancelTask: wrap(operations.cancelTask),
    subscribeToTask: wrap(operations.subscribeToTask),
    // HTTP+JSON serves SubscribeToTask by POST too (DECISIONS #12), under an operationId of its own.
    subscribeToTaskByPost: wrap(operations.subscribeToTask),
    createTaskPushNotificationConfig: wrap(operations.createTaskPushNotificationConfig),
    getTaskPushNotificationConfig: wrap(operations.getTaskPushNotificationConfig),
    listTaskPushNotificationConfigs: wrap(operations.listTaskPushNotificationConfigs),
    deleteTaskPushNotificationConfig: wrap(operations.deleteTaskPushNotificationConfig),
    getExtendedAgentCard: wrap(operations.getExtendedAgentCard),
  });
  const op = opsWith(checked);
  const raw = opsWith(unchecked);

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
      body: cardForEveryVersion(await operations.agentCard(request)),
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
  const rpcHandlersOf = (ops: typeof op) => ({
    SendMessage: rpc(ops.sendMessage),
    SendStreamingMessage: rpc(ops.sendStreamingMessage),
    GetTask: rpc(ops.getTask),
    ListTasks: rpc(ops.listTasks),
    CancelTask: rpc(ops.cancelTask),
    SubscribeToTask: rpc(ops.subscribeToTask),
    CreateTaskPushNotificationConfig: rpc(ops.createTaskPushNotificationConfig),
    GetTaskPushNotificationConfig: rpc(ops.getTaskPushNotificationConfig),
    ListTaskPushNotificationConfigs: rpc(ops.listTaskPushNotificationConfigs),
    DeleteTaskPushNotificationConfig: rpc(ops.deleteTaskPushNotificationConfig),
    GetExtendedAgentCard: rpc(ops.getExtendedAgentCard),
  });
  const rpcHandlers = rpcHandlersOf(op) as unknown as A2aRpcHandlers;

  const app = options.app ?? new Hono();
  const shared: Pick<AppOptions, 'limits'> = options.limits ? { limits: options.limits } : {};
  const validate =
    options.validateResponses === undefined ? {} : { validateResponses: options.validateResponses };
  // JSON-RPC has one endpoint for every version: each version's app is its own, and the version the request asks for
  // picks it (§3.6.2). A version no app serves reaches 1.0's, which refuses it with VersionNotSupportedError.
  const rpcApps = new Map<string, Hono>();
  rpcApps.set(
    A2A_PROTOCOL_VERSION,
    createA2aRpcApp(rpcHandlers, {
      app: new Hono(),
      path: rpcPath,
      errorData: rpcErrorData,
      onError: (error, method) => onError(error, method),
      ...shared,
      ...(options.validateResponses === undefined ? {} : { validateResults: options.validateResponses }),
    }),
  );
  const translated = translatedVersions({
    rpcHandlers: rpcHandlersOf(raw),
    call: (operation, request, input) => {
      const run = (raw as unknown as Record<string, ((p: unknown, c: A2aCall) => unknown) | undefined>)[
        operation
      ];
      // The generator checked every `to` against 1.0's operations; one the server lacks is a programming error.
      if (!run) throw new Error(`serveA2a has no 1.0 operation ${operation}`);
      return run(request, { request: input.request, signal: input.signal });
    },
    extra: {
      // 0.3 serves the public card at the well-known path (1.0's route answers it) and the extended one at /v1/card.
      getWellKnownAgentCard: async ({ request }) => cardForEveryVersion(await operations.agentCard(request)),
      getAgentCard: async ({ request }) =>
        cardForEveryVersion(await operations.getExtendedAgentCard({}, { request, signal: request.signal })),
    },
    rpcPath,
    ...shared,
    ...validate,
    onError,
    ownPaths: PATHS,
  });
  for (const t of translated) rpcApps.set(t.version, t.rpc);
  const jsonBytes = resolveLimits(options.limits).jsonBytes;
  app.post(rpcPath, async (c) => {
    const version = requestedVersion(c.req.raw, assumed);
    const target = rpcApps.get(version);
    if (target) return target.fetch(c.req.raw, c.env);
    // A version no app serves is refused whatever the method (§3.6.2), answering the request's id when it has one.
    const read = await readLimitedBytes(c.req.raw, jsonBytes);
    let id: unknown = null;
    try {
      if (read.ok) id = (JSON.parse(new TextDecoder().decode(read.bytes)) as { id?: unknown }).id ?? null;
    } catch {
      // Not JSON: the error names no id.
    }
    const error = versionNotSupported(version, false);
    return c.json({
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: error.toObject(),
    });
  });
  // Each translated version's HTTP+JSON surface has paths of its own (0.3: under /v1/).
  app.use(async (c, next) => {
    const path = new URL(c.req.url).pathname;
    const t = translated.find((x) => x.owns(path));
    if (t) return t.rest.fetch(c.req.raw, c.env);
    await next();
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

/** The version a request names, by header or query parameter ('' when it names none). */
const askedVersion = (request: Request): string =>
  (request.headers.get('a2a-version') ?? new URL(request.url).searchParams.get('A2A-Version') ?? '').trim();

/** What a request that names no version speaks (specification §3.6.2). */
export const VERSION_WHEN_UNSAID = '0.3';

/**
 * VERSION_NOT_SUPPORTED unless the request asks for A2A 1.0 (specification §3.6.2): by the `A2A-Version` header or
 * query parameter, `Major.Minor`, a patch number ignored. No version at all means 0.3 unless `assumed` says otherwise.
 */
/**
 * The version a request asks for, as `Major.Minor` (a patch number dropped): its `A2A-Version` header or query
 * parameter, or `assumed` (0.3 when not given, §3.6.2) when it has none.
 */
export function requestedVersion(request: Request, assumed?: string): string {
  const asked = askedVersion(request);
  const version = asked === '' ? (assumed ?? VERSION_WHEN_UNSAID) : asked;
  const [major, minor = '0'] = version.split('.');
  return `${major}.${minor}`;
}

/**
 * VERSION_NOT_SUPPORTED unless the request asks for A2A 1.0, the version of this handler set's own routes
 * (specification §3.6.2): by the `A2A-Version` header or query parameter, `Major.Minor`, a patch number ignored. No
 * version at all means 0.3 unless `assumed` says otherwise; 0.3 has routes of its own (see translated-versions.ts).
 */
export function checkVersion(request: Request, assumed?: string): void {
  const version = requestedVersion(request, assumed);
  if (version === A2A_PROTOCOL_VERSION) return;
  throw versionNotSupported(version, askedVersion(request) === '' && assumed === undefined);
}

/** VERSION_NOT_SUPPORTED for `version`, naming the versions this server answers. */
function versionNotSupported(version: string, unsaid: boolean): A2aError {
  return new A2aError(
    'VERSION_NOT_SUPPORTED',
    `this endpoint speaks A2A ${A2A_PROTOCOL_VERSION}, not ${version}${unsaid ? ' (a request without A2A-Version asks for 0.3)' : ''}; this agent answers ${SERVED_VERSIONS.join(' and ')}`,
    { requested: version, supported: SERVED_VERSIONS.join(',') },
  );
}
