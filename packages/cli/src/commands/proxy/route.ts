// Which operation of the protocol a request that passes the proxy is: an HTTP operation of the surface (by method and
// path template), or a call to the JSON-RPC endpoint. The surface's paths are relative to the agent's root, which is
// the target URL; the proxy's root stands for it.
import type { Surface, SurfaceOperation, SurfaceRpcMethod } from '@agentproto/runtime/contract';
import { compilePathTemplate, type PathTemplate } from '@agentproto/runtime/translate';

/** What a request is, as far as the protocol says. */
export type Route =
  | {
      readonly kind: 'operation';
      readonly operation: SurfaceOperation;
      /**
       * The operation is at the JSON-RPC endpoint but is not its POST (MCP's `GET /mcp`): a stream it answers with
       * carries the server's own JSON-RPC messages, which answer no call of the request.
       */
      readonly ownStream: boolean;
    }
  | {
      readonly kind: 'rpc';
      readonly methods: ReadonlyMap<string, SurfaceRpcMethod>;
      /**
       * The HTTP operation the surface declares at the JSON-RPC endpoint, when it declares one (MCP's `POST /mcp`,
       * whose answer may be JSON or a stream whatever the method): what it says of an answer's stream stands for
       * every method's.
       */
      readonly endpoint: SurfaceOperation | undefined;
    }
  | { readonly kind: 'unknown' };

/** Finds the route of each request from the surface's operations and JSON-RPC endpoint (the same object each time). */
export class Router {
  // Each operation's route is made once, here: a request finds its route without making one.
  private readonly operations: Array<{ operation: SurfaceOperation; template: PathTemplate; route: Route }> =
    [];
  private readonly rpcPath: string | undefined;
  private readonly rpcRoute: Route;

  constructor(surface: Surface) {
    this.rpcPath = surface.rpc ? (surface.rpc.endpoint ?? '/') : undefined;
    const rpcPath = this.rpcPath;
    for (const operation of surface.operations) {
      try {
        const template = compilePathTemplate(operation.path);
        const ownStream =
          rpcPath !== undefined &&
          operation.method !== 'POST' &&
          template.match(trimSlash(rpcPath)) !== undefined;
        this.operations.push({ operation, template, route: { kind: 'operation', operation, ownStream } });
      } catch {
        // A template the matcher cannot read names no request the proxy could tell apart: it stays unmatched.
      }
    }
    // The most literal templates first: `/tasks/list` is not the task `list` of `/tasks/{id}`, nor is
    // `/tasks/1:subscribe` the task `1:subscribe`.
    const literal = (path: string) => path.replace(/\{[^{}]*\}/g, '').length;
    this.operations.sort(
      (a, b) =>
        a.template.vars.length - b.template.vars.length ||
        literal(b.operation.path) - literal(a.operation.path),
    );
    const endpoint =
      rpcPath === undefined
        ? undefined
        : this.operations.find(
            ({ operation, template }) => operation.method === 'POST' && template.match(trimSlash(rpcPath)),
          )?.operation;
    this.rpcRoute = {
      kind: 'rpc',
      methods: new Map((surface.rpc?.methods ?? []).map((m) => [m.name, m])),
      endpoint,
    };
  }

  /** The route of `method` `path` (the path relative to the agent's root, without its query). */
  route(method: string, path: string): Route {
    if (method === 'POST' && this.rpcPath !== undefined && trimSlash(path) === trimSlash(this.rpcPath))
      return this.rpcRoute;
    for (const { operation, template, route } of this.operations) {
      if (operation.method === method && template.match(path)) return route;
    }
    return UNKNOWN;
  }
}

const UNKNOWN: Route = { kind: 'unknown' };

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
