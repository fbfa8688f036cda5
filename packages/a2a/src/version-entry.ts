// What `@agentproto/a2a/<version>` exports beyond the generated code. Each version's entry point
// (src/generated/<version>/entry.ts, generated from the manifest's `entry`) re-exports this module and binds
// `forVersion(version)`. The agent side (task manager, server, errors) is written once, against the latest version's
// types, and is the same module in every entry point.
import type { RpcClientOptions } from '@agentproto/runtime';
import type { StreamCheck } from '@agentproto/runtime/contract';
import { GENERATED } from './generated/modules.js';
import type { Version } from './generated/versions.js';
import { A2aStreamCheck } from './stream/stream-rules.js';
import { VERSION_TRAITS } from './version-data.js';

export {
  type A2aAgent,
  type AgentCardInput,
  type AgentEvent,
  type AgentTurn,
  type ArtifactEvent,
  INTERRUPTED_STATES,
  type ReplyEvent,
  type StateEvent,
  TERMINAL_STATES,
} from './agent/agent.js';
export {
  DEFAULT_SETTLE_RETRY,
  DEFAULT_TASK_LIMITS,
  type SettleRetry,
  type TaskLimits,
  TaskManager,
  type TaskManagerOptions,
} from './agent/task-manager.js';
export { type A2aConnection, connectA2a, jsonRpcInterfaces } from './client/connect.js';
export {
  A2A_ERROR_DOMAIN,
  A2A_ERRORS,
  A2aError,
  type A2aErrorReason,
  problemToRest,
  rpcErrorData,
} from './errors/a2a-error.js';
export { type A2aServer, type A2aServerOptions, createA2aServer } from './server/create-a2a-server.js';
export {
  A2A_PROTOCOL_VERSION,
  type A2aCall,
  type A2aOperations,
  checkVersion,
  requestedVersion,
  SERVED_VERSIONS,
  type ServeA2aOptions,
  serveA2a,
} from './server/serve-a2a.js';
export { A2aStreamCheck, STREAM_RULES, type StreamRule } from './stream/stream-rules.js';

type Generated = typeof GENERATED;
/** The options of a version's HTTP+JSON client (openapi-fetch's, with the client's time limits). */
type RestOptions<V extends Version> = NonNullable<Parameters<Generated[V]['createA2aClient']>[0]>;

/**
 * What the entry point of `version` binds to it. Its clients send the version's `A2A-Version` header on every request
 * when the version has one (1.0 §3.6.1: "Clients MUST send the A2A-Version header with each request"; an agent reads
 * a request without it as 0.3), unless the caller's options set that header themselves.
 */
export function forVersion<V extends Version>(version: V) {
  const code: Generated[V] = GENERATED[version];
  const header: Record<string, string> = VERSION_TRAITS[version].sendsVersionHeader
    ? { 'A2A-Version': version }
    : {};
  return {
    /** A check of one stream of this version: feed it events, then call `end()`. */
    createStreamCheck: (): StreamCheck => new A2aStreamCheck(version),
    /** A typed client for the agent's JSON-RPC endpoint at `options.url`, speaking this version. */
    createA2aRpcClient: (options: RpcClientOptions) =>
      // sound: `code` is the generated module of V, so its client is V's client.
      code.createA2aRpcClient({ ...options, headers: { ...header, ...options.headers } }) as ReturnType<
        Generated[V]['createA2aRpcClient']
      >,
    /** A typed client for the agent's HTTP+JSON interface at `options.baseUrl`, speaking this version. */
    createA2aClient: (options: RestOptions<V> = {}) => {
      // sound: as above, V's own client.
      const client = code.createA2aClient(options) as ReturnType<Generated[V]['createA2aClient']>;
      // A middleware rather than the options' headers: those may be a Headers, pairs or a record, and a request's own
      // headers are already in the Request it sees.
      client.http.use({
        onRequest: ({ request }) => {
          for (const [name, value] of Object.entries(header))
            if (!request.headers.has(name)) request.headers.set(name, value);
          return request;
        },
      });
      return client;
    },
  };
}
