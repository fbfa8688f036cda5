// A2A's operations, free of any binding, served over both: HTTP+JSON (each operation's path, query and body read into
// its proto request message) and JSON-RPC (the params are that message). One typed operation set answers both, with
// A2A's version negotiation and errors in each binding's form.
import {
  type AppOptions,
  type RequestLimits,
  type RpcContext,
  readLimitedBytes,
  resolveLimits,
} from '@agentproto/runtime';
import { type Context, Hono } from 'hono';
import { A2aError, InvalidParamsError, problemToRest, rpcErrorData } from '../errors/a2a-error.js';
import type {
  A2aHandlers,
  A2aRpcHandlers,
  AgentCard,
  CancelTaskForTenantInput,
  CancelTaskInput,
  CancelTaskRequest,
  CreateTaskPushNotificationConfigForTenantInput,
  CreateTaskPushNotificationConfigInput,
  DeleteTaskPushNotificationConfigForTenantInput,
  DeleteTaskPushNotificationConfigInput,
  DeleteTaskPushNotificationConfigRequest,
  Empty,
  GetExtendedAgentCardForTenantInput,
  GetExtendedAgentCardInput,
  GetExtendedAgentCardRequest,
  GetTaskForTenantInput,
  GetTaskInput,
  GetTaskPushNotificationConfigForTenantInput,
  GetTaskPushNotificationConfigInput,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsForTenantInput,
  ListTaskPushNotificationConfigsInput,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksForTenantInput,
  ListTasksInput,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageForTenantInput,
  SendMessageInput,
  SendMessageRequest,
  SendMessageResponse,
  SendStreamingMessageForTenantInput,
  SendStreamingMessageInput,
  StreamResponse,
  SubscribeToTaskByPostForTenantInput,
  SubscribeToTaskByPostInput,
  SubscribeToTaskForTenantInput,
  SubscribeToTaskInput,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '../generated/1.0/index.js';
import { createA2aApp, createA2aRpcApp } from '../generated/1.0/index.js';
import { PATHS } from '../generated/1.0/paths.js';
import { GENERATED } from '../generated/modules.js';
import { isVersion, type Version } from '../generated/versions.js';
import { isObjectLike } from '../is-object-like.js';
import {
  HANDLER_VERSION,
  isNative,
  majorMinor,
  NATIVE_VERSIONS,
  SERVED_VERSIONS,
  VERSION_TRAITS,
  VERSION_WHEN_UNSAID,
} from '../version-data.js';
import { cacheCard } from './card-cache.js';
import { cardForEveryVersion } from './card-versions.js';
import { Unauthenticated } from './extended-card.js';
import { checkTenant, firstSegments } from './tenant.js';
import { translatedVersions } from './translated-versions.js';

/**
 * The protocol version the handler set is written in (the types and routes above are its generated code), as
 * `A2A-Version` and the card's `protocolVersion` spell it: the manifest's translation target, or its latest version.
 */
export const A2A_PROTOCOL_VERSION: Version = HANDLER_VERSION;

export { SERVED_VERSIONS, VERSION_WHEN_UNSAID };

/** Where the public agent card is served (§8.2), one of the generated surface's paths. */
const CARD_PATH: (typeof PATHS)[number] = '/.well-known/agent-card.json';

/** What an operation gets beside its request message: the HTTP request, and a signal that aborts when it goes away. */
export interface A2aCall {
  request: Request;
  signal: AbortSignal;
  /**
   * The protocol version of a client served through a translation (0.3): what it is told later (push notifications)
   * is in its shapes. Absent for the versions the handlers speak.
   */
  version?: Version;
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
   * What a request without an `A2A-Version` header (or query parameter) means. The specification says 0.3 (§3.6.2;
   * VERSION_WHEN_UNSAID, from the manifest), which this server answers through its 0.3 translation; set `'1.0'` to
   * take such requests as 1.0.
   */
  assumeVersion?: string;
  /** Told about failures the client sees only as a generic error. */
  onError?: (error: unknown, where: string) => void;
  /** Request limits, as for every generated server. */
  limits?: Partial<RequestLimits>;
  /** Check answers against the schemas (default: on unless NODE_ENV is `production`). */
  validateResponses?: boolean;
  /** How long clients may cache the agent card, in seconds (`Cache-Control: max-age`; default 300, §8.6.1). */
  cardMaxAge?: number;
  /** An existing app to add the routes to. */
  app?: Hono;
}

/** Serves A2A's operations over HTTP+JSON (at the root) and JSON-RPC (at `rpcPath`) on one Hono app. */
export function serveA2a(operations: A2aOperations, options: ServeA2aOptions = {}): Hono {
  const onError = options.onError ?? ((error: unknown, where: string) => console.error(`[${where}]`, error));
  const assumed = options.assumeVersion;
  const rpcPath = options.rpcPath ?? '/jsonrpc';
  // Tenants (DECISIONS 115): a name the paths of any version (or the JSON-RPC endpoint) begin with is not one.
  const reserved = firstSegments([...Object.values(GENERATED).flatMap((g) => g.PATHS), rpcPath]);
  /** Every operation but the card, as the handler version serves it: the version is checked first. */
  const checked =
    <P, R>(operation: (params: P, call: A2aCall) => Answer<R>) =>
    (params: P, c: A2aCall): Answer<R> => {
      checkVersion(c.request, assumed);
      // The request message's `tenant` (both bindings; HTTP+JSON's from the path) must name a tenant (DECISIONS 115).
      if (isObjectLike(params)) checkTenant(params.tenant, reserved);
      return operation.call(operations, params, c);
    };
  /** The same operation for a version served through a translation: the request already chose it. */
  const unchecked =
    <P, R>(operation: (params: P, call: A2aCall) => Answer<R>) =>
    (params: P, c: A2aCall): Answer<R> =>
      operation.call(operations, params, withVersion(c));
  /** The call with its translated version, each read only when asked for (the signal may be made on first read). */
  const withVersion = (c: A2aCall): A2aCall => {
    let version: Version | undefined;
    return {
      request: c.request,
      get signal() {
        return c.signal;
      },
      get version() {
        version ??= translatedVersionOf(c.request);
        return version;
      },
    };
  };
  /** The translated version a request reached: its path's (HTTP+JSON), else the one it asks for (JSON-RPC). */
  const translatedVersionOf = (request: Request): Version => {
    const path = new URL(request.url).pathname;
    const byPath = translated.find((t) => t.owns(path))?.version;
    const asked = requestedVersion(request, assumed);
    return byPath ?? (isVersion(asked) ? asked : HANDLER_VERSION);
  };
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

  // HTTP+JSON: the path, query and body make the request message (§11.3-11.5), each handler's input already checked
  // against the operation's parameters and body by the generated routes; an A2aError becomes its status and
  // ErrorResponse, anything else the runtime answers as a 500.
  const rest =
    <I extends A2aCall, P, R>(operation: (params: P, c: A2aCall) => Answer<R>, toParams: (input: I) => P) =>
    async (input: I) => {
      try {
        return {
          status: 200 as const,
          body: await operation(toParams(input), { request: input.request, signal: input.signal }),
        };
      } catch (error) {
        if (
          error instanceof A2aError ||
          error instanceof InvalidParamsError ||
          error instanceof Unauthenticated
        )
          return error.toRest();
        throw error;
      }
    };
  const subscribe = rest(op.subscribeToTask, (i: SubscribeToTaskInput) => ({ id: i.params.id }));
  const restHandlers: Omit<A2aHandlers, keyof A2aTenantHandlers> = {
    getAgentCard: async ({ request }) => ({
      status: 200,
      body: cardForEveryVersion(await operations.agentCard(request)),
    }),
    sendMessage: rest(op.sendMessage, (i: SendMessageInput) => i.body),
    sendStreamingMessage: rest(op.sendStreamingMessage, (i: SendStreamingMessageInput) => i.body),
    getTask: rest(op.getTask, (i: GetTaskInput) => ({ ...given(i.query), id: i.params.id })),
    listTasks: rest(op.listTasks, (i: ListTasksInput) => given(i.query)),
    cancelTask: rest(op.cancelTask, (i: CancelTaskInput) => ({ ...i.body, id: i.params.id })),
    subscribeToTask: subscribe,
    subscribeToTaskByPost: rest(op.subscribeToTask, (i: SubscribeToTaskByPostInput) => ({ id: i.params.id })),
    createTaskPushNotificationConfig: rest(
      op.createTaskPushNotificationConfig,
      (i: CreateTaskPushNotificationConfigInput) => ({ ...i.body, taskId: i.params.taskId }),
    ),
    getTaskPushNotificationConfig: rest(
      op.getTaskPushNotificationConfig,
      (i: GetTaskPushNotificationConfigInput) => ({ taskId: i.params.taskId, id: i.params.id }),
    ),
    listTaskPushNotificationConfigs: rest(
      op.listTaskPushNotificationConfigs,
      (i: ListTaskPushNotificationConfigsInput) => ({ ...given(i.query), taskId: i.params.taskId }),
    ),
    deleteTaskPushNotificationConfig: rest(
      op.deleteTaskPushNotificationConfig,
      (i: DeleteTaskPushNotificationConfigInput) => ({ taskId: i.params.taskId, id: i.params.id }),
    ),
    getExtendedAgentCard: rest(op.getExtendedAgentCard, (_: GetExtendedAgentCardInput) => ({})),
  };
  // The same operations under `/{tenant}/…` (the proto's additional bindings): the path's tenant goes into the
  // request message, checked with the rest of it (DECISIONS 115).
  const tenantOf = (i: { params: { tenant: string } }) => i.params.tenant;
  const tenantHandlers: A2aTenantHandlers = {
    sendMessageForTenant: rest(op.sendMessage, (i: SendMessageForTenantInput) =>
      withTenant(i.body, tenantOf(i)),
    ),
    sendStreamingMessageForTenant: rest(op.sendStreamingMessage, (i: SendStreamingMessageForTenantInput) =>
      withTenant(i.body, tenantOf(i)),
    ),
    getTaskForTenant: rest(op.getTask, (i: GetTaskForTenantInput) => ({
      ...given(i.query),
      id: i.params.id,
      tenant: tenantOf(i),
    })),
    listTasksForTenant: rest(op.listTasks, (i: ListTasksForTenantInput) => ({
      ...given(i.query),
      tenant: tenantOf(i),
    })),
    cancelTaskForTenant: rest(op.cancelTask, (i: CancelTaskForTenantInput) =>
      withTenant({ ...i.body, id: i.params.id }, tenantOf(i)),
    ),
    subscribeToTaskForTenant: rest(op.subscribeToTask, (i: SubscribeToTaskForTenantInput) => ({
      id: i.params.id,
      tenant: tenantOf(i),
    })),
    subscribeToTaskByPostForTenant: rest(op.subscribeToTask, (i: SubscribeToTaskByPostForTenantInput) => ({
      id: i.params.id,
      tenant: tenantOf(i),
    })),
    createTaskPushNotificationConfigForTenant: rest(
      op.createTaskPushNotificationConfig,
      (i: CreateTaskPushNotificationConfigForTenantInput) =>
        withTenant({ ...i.body, taskId: i.params.taskId }, tenantOf(i)),
    ),
    getTaskPushNotificationConfigForTenant: rest(
      op.getTaskPushNotificationConfig,
      (i: GetTaskPushNotificationConfigForTenantInput) => ({
        taskId: i.params.taskId,
        id: i.params.id,
        tenant: tenantOf(i),
      }),
    ),
    listTaskPushNotificationConfigsForTenant: rest(
      op.listTaskPushNotificationConfigs,
      (i: ListTaskPushNotificationConfigsForTenantInput) => ({
        ...given(i.query),
        taskId: i.params.taskId,
        tenant: tenantOf(i),
      }),
    ),
    deleteTaskPushNotificationConfigForTenant: rest(
      op.deleteTaskPushNotificationConfig,
      (i: DeleteTaskPushNotificationConfigForTenantInput) => ({
        taskId: i.params.taskId,
        id: i.params.id,
        tenant: tenantOf(i),
      }),
    ),
    getExtendedAgentCardForTenant: rest(op.getExtendedAgentCard, (i: GetExtendedAgentCardForTenantInput) => ({
      tenant: tenantOf(i),
    })),
  };

  // JSON-RPC: the params are the request message; an A2aError is a JsonRpcError already (its code and ErrorInfo).
  const rpc =
    <P, R>(operation: (params: P, c: A2aCall) => Answer<R>) =>
    (params: P, context: RpcContext): Answer<R> =>
      operation(params, {
        request: context.request,
        get signal() {
          return context.signal;
        },
      });
  const rpcHandlersOf = (ops: typeof op) =>
    ({
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
    }) satisfies A2aRpcHandlers;
  const rpcHandlers: A2aRpcHandlers = rpcHandlersOf(op);

  const app = options.app ?? new Hono();
  // The card's caching headers and conditional answers (§8.6.1), for whichever version's route serves it.
  cacheCard(app, CARD_PATH, options.cardMaxAge);
  const shared: Pick<AppOptions, 'limits'> = options.limits ? { limits: options.limits } : {};
  const validate =
    options.validateResponses === undefined ? {} : { validateResponses: options.validateResponses };
  // JSON-RPC has one endpoint for every version: the version the request asks for picks the app (§3.6.2). Every
  // version served natively shares the handler version's app; each translated one has its own. A version no app
  // serves is refused below.
  const rpcApps = new Map<string, Hono>();
  const nativeRpc = createA2aRpcApp(rpcHandlers, {
    app: new Hono(),
    path: rpcPath,
    errorData: rpcErrorData,
    onError: (error, method) => onError(error, method),
    streamErrors: VERSION_TRAITS[HANDLER_VERSION].rpcStreamErrors,
    ...shared,
    ...(options.validateResponses === undefined ? {} : { validateResults: options.validateResponses }),
  });
  for (const version of NATIVE_VERSIONS) rpcApps.set(version, nativeRpc);
  const translated = translatedVersions({
    rpcHandlers: rpcHandlersOf(raw),
    call: (operation, request, input) => {
      const byName: Readonly<Record<string, (params: never, c: A2aCall) => unknown>> = raw;
      const run = Object.hasOwn(byName, operation) ? byName[operation] : undefined;
      // The generator checked every `to` against the target's operations; one the server lacks is a programming error.
      if (!run) throw new Error(`serveA2a has no ${HANDLER_VERSION} operation ${operation}`);
      // sound: `request` is the translated version's request, validated by its route, translated up, and checked
      // against the request type of `operation` (checkUp) when it has a body; path and query parameters are its
      // validated ones under the handler version's names. It is the message `run` takes.
      return run(request as never, { request: input.request, signal: input.signal });
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
    // 1.0's paths without a tenant: `/v1/tasks/{id}` is 0.3's, not tenant `v1`'s (`v1` is reserved, DECISIONS 115).
    ownPaths: PATHS.filter((p) => !p.startsWith('/{tenant}/')),
    // A request on a translated version's path that names another version is refused (DECISIONS 91).
    refuseVersion: (request, version) => {
      const asked = askedVersion(request);
      return asked === '' || majorMinor(asked) === version
        ? undefined
        : versionNotSupported(majorMinor(asked), false, [version]);
    },
  });
  for (const t of translated) rpcApps.set(t.version, t.rpc);
  const jsonBytes = resolveLimits(options.limits).jsonBytes;
  const answerRpc = async (c: Context, request: Request) => {
    const version = requestedVersion(request, assumed);
    const target = rpcApps.get(version);
    if (target) return target.fetch(request, c.env);
    // A version no app serves is refused whatever the method (§3.6.2), answering the request's id when it has one.
    const read = await readLimitedBytes(request, jsonBytes);
    let id: unknown = null;
    try {
      const parsed: unknown = read.ok ? JSON.parse(new TextDecoder().decode(read.bytes)) : undefined;
      if (isObjectLike(parsed)) id = parsed.id ?? null;
    } catch {
      // Not JSON: the error names no id.
    }
    const error = versionNotSupported(version, false, NATIVE_VERSIONS);
    return c.json({
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: error.toObject(),
    });
  };
  app.post(rpcPath, (c) => answerRpc(c, c.req.raw));
  // The endpoint answers with a trailing slash too (`/jsonrpc/`), as the URL a client joins "/" to (DECISIONS 98).
  if (!rpcPath.endsWith('/'))
    app.post(`${rpcPath}/`, (c) => {
      const url = new URL(c.req.url);
      url.pathname = rpcPath;
      return answerRpc(c, new Request(url, c.req.raw));
    });
  // Each translated version's HTTP+JSON surface has paths of its own (0.3: under /v1/): the path picks the version.
  app.use(async (c, next) => {
    const path = new URL(c.req.url).pathname;
    const t = translated.find((x) => x.owns(path));
    if (t) return t.rest.fetch(c.req.raw, c.env);
    await next();
  });
  createA2aApp(
    { ...restHandlers, ...tenantHandlers },
    {
      app,
      onError: (error, operation) => onError(error, operation),
      errorBody: problemToRest,
      ...shared,
      ...(options.validateResponses === undefined ? {} : { validateResponses: options.validateResponses }),
    },
  );
  return app;
}

/**
 * The request message with the tenant its path named (HTTP+JSON's `/{tenant}/…` routes): a body naming another tenant
 * is refused (InvalidParams, DECISIONS 115); without a tenant in the path, the message's own `tenant` stands.
 */
function withTenant<P>(params: P, tenant: string | undefined): P {
  if (tenant === undefined || !isObjectLike(params)) return params;
  const said = params.tenant;
  if (said !== undefined && said !== '' && said !== tenant)
    throw new InvalidParamsError(
      'tenant',
      `the body names tenant ${JSON.stringify(said)} but the path tenant ${JSON.stringify(tenant)}`,
    );
  return { ...params, tenant };
}

/** The handlers of the `/{tenant}/…` routes, one per operation. */
type A2aTenantHandlers = {
  [K in keyof A2aHandlers as K extends `${string}ForTenant` ? K : never]: A2aHandlers[K];
};

/** A query as the generated routes hand it over: each parameter the request gives is there, none is undefined. */
type Given<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

/** The query of a route's input, its optional parameters typed as present-or-absent (`exactOptionalPropertyTypes`). */
function given<T extends object>(query: T): Given<T> {
  // sound: the routes build the query from the parameters the request carries, each validated; one it lacks is left
  // out, never set to undefined, so every property present has its declared type.
  return query as Given<T>;
}

/** The version a request names, by header or query parameter ('' when it names none). */
const askedVersion = (request: Request): string => {
  const header = request.headers.get('a2a-version');
  if (header !== null) return header.trim();
  // Only a URL with a query can name it there: every request without the header (a 0.3 client's) skips the parse.
  if (!request.url.includes('?')) return '';
  return (new URL(request.url).searchParams.get('A2A-Version') ?? '').trim();
};

/**
 * The version a request asks for, as `Major.Minor` (a patch number dropped): its `A2A-Version` header or query
 * parameter, or `assumed` (VERSION_WHEN_UNSAID when not given: 0.3, §3.6.2) when it has none.
 */
export function requestedVersion(request: Request, assumed?: string): string {
  const asked = askedVersion(request);
  return majorMinor(asked === '' ? (assumed ?? VERSION_WHEN_UNSAID) : asked);
}

/**
 * VERSION_NOT_SUPPORTED unless the request asks for a version the handler set's own routes serve (specification
 * §3.6.2): the handler version, or one the manifest lists beside it with no translation. By the `A2A-Version` header
 * or query parameter, `Major.Minor`, a patch number ignored; no version at all means VERSION_WHEN_UNSAID (0.3) unless
 * `assumed` says otherwise, and 0.3 has routes of its own (see translated-versions.ts).
 */
export function checkVersion(request: Request, assumed?: string): void {
  const version = requestedVersion(request, assumed);
  if (isNative(version)) return;
  throw versionNotSupported(version, askedVersion(request) === '' && assumed === undefined, NATIVE_VERSIONS);
}

/** VERSION_NOT_SUPPORTED for `version`, naming the versions the endpoint speaks and those the agent answers. */
function versionNotSupported(version: string, unsaid: boolean, here: readonly string[]): A2aError {
  return new A2aError(
    'VERSION_NOT_SUPPORTED',
    `this endpoint speaks A2A ${here.join(' and ')}, not ${version}${unsaid ? ` (a request without A2A-Version asks for ${VERSION_WHEN_UNSAID})` : ''}; this agent answers ${SERVED_VERSIONS.join(' and ')}`,
    { requested: version, supported: SERVED_VERSIONS.join(',') },
  );
}
