// A typed MCP client connected the way its revision wants: with a handshake (`initialize`, then every request with
// the session and the agreed revision in headers), or stateless (every request with `_meta` naming the revision and
// the client, and the headers that mirror its body). Answers sent as event streams are read to their response; what
// the server sends before it goes to `onMessage`.
import type { RpcClientOptions } from '@agentproto/runtime';
import { GENERATED } from '../generated/modules.js';
import { LATEST } from '../generated/versions.js';
import { isObjectLike } from '../is-object-like.js';
import { type McpVersion, VERSION_TRAITS } from '../version-traits.js';
import { mirroredHeaders } from './mirrored-headers.js';

/** How to reach an MCP server. */
export interface McpConnectOptions<V extends McpVersion> {
  /** The server's endpoint (`http://127.0.0.1:3000/mcp`). */
  url: string;
  /** The revision to speak (default: the latest this package has). */
  version?: V;
  /** A fetch to use instead of the global one (`(r) => app.fetch(r)` for an app in memory). */
  fetch?: RpcClientOptions['fetch'];
  /** Who the client is (default agentproto). */
  clientInfo?: { name: string; version: string };
  /** What the client can do (default: nothing it must answer). */
  capabilities?: Record<string, unknown>;
  /** Told every message the server sends before an answer (progress, log messages). */
  onMessage?: (message: unknown) => void;
  /** Give up on a call after this long, in milliseconds (default 60 000). */
  timeoutMs?: number;
}

/** A method of the generated client, whose params' `_meta` the connection fills in (so a caller may leave it out). */
type MetaFilled<F> = F extends (params: infer P, options?: infer O) => infer R
  ? (params: P extends { _meta: infer M } ? Omit<P, '_meta'> & { _meta?: Partial<M> } : P, options?: O) => R
  : F;

/** The revision's generated client, as a connection offers it. */
export type ConnectedClient<V extends McpVersion> = {
  [K in keyof ReturnType<(typeof GENERATED)[V]['createMcpRpcClient']>]: MetaFilled<
    ReturnType<(typeof GENERATED)[V]['createMcpRpcClient']>[K]
  >;
};

/** A connected client. */
export interface McpConnection<V extends McpVersion> {
  version: V;
  /** The revision's generated client: one typed method per JSON-RPC method (`_meta` filled in where required). */
  client: ConnectedClient<V>;
  /** The session the server gave, if any. */
  readonly session: string | undefined;
  /** What the server said of itself: the `initialize` result, or the `server/discover` one. */
  server: Record<string, unknown>;
  /** Ends the session, if there is one (DELETE); a server that keeps none is not asked. */
  close(): Promise<void>;
}

const META = 'io.modelcontextprotocol';

/** Connects to an MCP server in the revision asked for; rejects when the server will not speak it. */
export async function connectMcp<V extends McpVersion = typeof LATEST>(
  options: McpConnectOptions<V>,
): Promise<McpConnection<V>> {
  // sound: V is inferred from `version`; where that is left out, V is its default, typeof LATEST.
  const version = (options.version ?? LATEST) as V;
  const traits = VERSION_TRAITS[version];
  const clientInfo = options.clientInfo ?? { name: 'agentproto', version: '0.1.0' };
  const capabilities = options.capabilities ?? {};
  const headers: Record<string, string> = traits.handshake ? {} : { 'mcp-protocol-version': version };
  let session: string | undefined;
  const withMeta = (params: unknown) => {
    const p = isObjectLike(params) ? params : {};
    const meta = p._meta ?? {};
    return {
      ...p,
      _meta: {
        ...meta,
        [`${META}/protocolVersion`]: version,
        [`${META}/clientCapabilities`]: capabilities,
        [`${META}/clientInfo`]: clientInfo,
      },
    };
  };
  const rpcOptions: RpcClientOptions = {
    url: options.url,
    headers,
    accept: 'application/json, text/event-stream',
    onResponse: (response, method) => {
      const id = response.headers.get('mcp-session-id');
      if (method === 'initialize' && id) {
        session = id;
        headers['mcp-session-id'] = id;
      }
    },
    ...(traits.handshake
      ? {}
      : {
          prepare: (method, params) => ({
            params: withMeta(params),
            headers: mirroredHeaders(method, params),
          }),
        }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.onMessage ? { onMessage: options.onMessage } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };
  // sound: it is V's generated client (indexing by a V widens to every revision's), and where a revision requires
  // `_meta`, which ConnectedClient leaves optional, `prepare` fills it in on every call.
  const client = GENERATED[version].createMcpRpcClient(rpcOptions) as ConnectedClient<V>;
  let server: Record<string, unknown>;
  if (traits.handshake) {
    server = await client.rpc.call<Record<string, unknown>>('initialize', {
      protocolVersion: version,
      capabilities,
      clientInfo,
    });
    if (server.protocolVersion !== version)
      throw new Error(
        `the server at ${options.url} answered initialize with revision ${JSON.stringify(server.protocolVersion)}, not ${version}: connect with that revision`,
      );
    headers['mcp-protocol-version'] = version;
    await client.rpc.notify('notifications/initialized', {});
  } else {
    server = await client.rpc.call<Record<string, unknown>>('server/discover', {});
    const spoken = server.supportedVersions;
    if (Array.isArray(spoken) && !spoken.includes(version))
      throw new Error(`the server at ${options.url} speaks ${spoken.join(', ')}, not ${version}`);
  }
  const fetchOf = options.fetch ?? ((r: Request) => fetch(r));
  return {
    version,
    client,
    get session() {
      return session;
    },
    server,
    async close() {
      if (!session) return;
      const answer = await fetchOf(
        new Request(options.url, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session } }),
      );
      await answer.body?.cancel();
      session = undefined;
    },
  };
}
