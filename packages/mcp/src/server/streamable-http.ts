// MCP's Streamable HTTP transport, every revision at one endpoint. A POST is a pipeline of steps (steps/): the Accept
// header, the body read once and its one message, the revision (the `MCP-Protocol-Version` header; without it, the
// handshake revision, whose `initialize` comes without one), that revision's transport rules (sessions, or the request
// headers that mirror the body), and the answer from that revision's JSON-RPC dispatcher over the one handler set
// (rpc-handlers.ts). Each step answers the request or leaves its part for the next, as the runtime's bindings do.
import {
  pipeline,
  type RequestLimits,
  RPC_ERROR_CODES,
  type RpcAppOptions,
  resolveLimits,
} from '@agentproto/runtime';
import { Hono } from 'hono';
import { GENERATED } from '../generated/modules.js';
import { VERSIONS } from '../generated/versions.js';
import { type McpVersion, VERSION_TRAITS } from '../version-traits.js';
import type { McpServerDefinition } from './definition.js';
import { DEFAULT_REPLY_LIMITS, type ReplyLimits, ReplyRouter } from './exchange.js';
import { type InputStateOptions, inputStateOptions } from './input-rounds.js';
import { type OriginPolicy, refuseForeign } from './origin.js';
import { rpcHandlersFor } from './rpc-handlers.js';
import { DEFAULT_SESSION_LIMITS, type SessionLimits, SessionStore } from './sessions.js';
import { acceptsBoth } from './steps/accept.js';
import { answerMessage, type Era } from './steps/answer.js';
import { checkMirroredHeaders } from './steps/mirrored-headers.js';
import { pickRevision } from './steps/pick-revision.js';
import { MCP_TRANSPORT_ERRORS, refuse, startPost } from './steps/post-state.js';
import { readMessage } from './steps/read-message.js';
import { requireSession, settleReply } from './steps/sessions.js';

export { decodeHeaderValue } from './steps/mirrored-headers.js';
export { MCP_TRANSPORT_ERRORS } from './steps/post-state.js';

/** Options of an MCP server app. Every limit has a documented default. */
export interface McpAppOptions extends Partial<OriginPolicy> {
  /** The endpoint (default `/mcp`). */
  path?: string;
  /** The revisions served (default: every revision this package speaks). */
  versions?: readonly McpVersion[];
  /** Sessions for revisions with a handshake: their bounds, or `false` to keep none (default 1,024, 30 min idle). */
  sessions?: Partial<SessionLimits> | false;
  /** Body size and nesting depth, as for every agentproto server (default 1 MiB, depth 64). */
  limits?: Partial<RequestLimits>;
  /**
   * The server's own requests on an answer's stream (sampling, elicitation, roots, in revisions with a handshake):
   * how many may wait for the client's reply at once, and for how long (default 1,024, 60 s).
   */
  replies?: Partial<ReplyLimits>;
  /** How multi-round-trip `requestState` is signed and how long it stays good (default: a key per process, 10 min). */
  inputState?: Partial<InputStateOptions>;
  /** Check every result against its schema (default: on unless NODE_ENV is `production`). */
  validateResults?: boolean;
  /** Told when a handler throws something other than a JsonRpcError, or answers with an invalid result. */
  onError?: RpcAppOptions['onError'];
}

/** Builds the Hono app of an MCP server: POST (and, with sessions, GET and DELETE) at one endpoint. */
export function createMcpApp(server: McpServerDefinition, options: McpAppOptions = {}): Hono {
  const path = options.path ?? '/mcp';
  const versions = options.versions ?? VERSIONS;
  const limits = resolveLimits(options.limits ?? {});
  const handshake = versions.filter((v) => VERSION_TRAITS[v].handshake);
  const sessions =
    options.sessions === false
      ? undefined
      : new SessionStore({ ...DEFAULT_SESSION_LIMITS, ...options.sessions });
  const replies = new ReplyRouter({ ...DEFAULT_REPLY_LIMITS, ...options.replies });
  const inputState = inputStateOptions(options.inputState);
  const eras = new Map(
    versions.map((v) => {
      // sound: the handler set is typed per method by the generated factory of each revision; rpcHandlersFor builds
      // every method of every revision from one definition, and each app serves (and validates) only its own methods.
      const handlers = rpcHandlersFor(v, server, { versions, inputState }) as never;
      const rpc: RpcAppOptions = {
        ...(options.validateResults !== undefined ? { validateResults: options.validateResults } : {}),
        ...(options.onError ? { onError: options.onError } : {}),
      };
      // The dispatcher answers as a web Response the transport still reads and shapes (never straight to the socket).
      const era: Era = {
        app: GENERATED[v].createMcpRpcApp(handlers, { ...rpc, path: '/', limits }),
        dispatch: GENERATED[v].createMcpRpcDispatcher(handlers, { ...rpc, nodeStreams: false }),
      };
      return [v, era] as const;
    }),
  );
  const app = new Hono();

  app.use(path, async (c, next) => {
    const why = refuseForeign(c.req.raw, options);
    if (why) return refuse(403, RPC_ERROR_CODES.invalidRequest, `Forbidden: ${why}`);
    await next();
  });

  app.get(path, () => {
    // No revision here offers the server's own stream: a client asking for it is told so, as the specification allows.
    const answer = refuse(
      405,
      RPC_ERROR_CODES.invalidRequest,
      'Method Not Allowed: this server sends nothing outside answers',
    );
    answer.headers.set('allow', sessions && handshake.length > 0 ? 'POST, DELETE' : 'POST');
    return answer;
  });

  app.delete(path, (c) => {
    if (!sessions || handshake.length === 0)
      return refuse(405, RPC_ERROR_CODES.invalidRequest, 'Method Not Allowed: this server keeps no sessions');
    const id = c.req.header('mcp-session-id');
    if (!id) return refuse(400, RPC_ERROR_CODES.invalidRequest, 'Bad Request: no Mcp-Session-Id to end');
    if (!sessions.end(id)) return refuse(404, MCP_TRANSPORT_ERRORS.sessionNotFound, 'Session not found');
    return c.body(null, 200);
  });

  app.post(
    path,
    pipeline(startPost, [
      acceptsBoth,
      readMessage(limits),
      pickRevision(versions, handshake),
      settleReply(sessions, replies),
      requireSession(sessions),
      checkMirroredHeaders,
      answerMessage(eras, replies, sessions),
    ]),
  );
  return app;
}
