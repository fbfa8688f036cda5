// One handler set for every MCP revision: the methods of a server definition, answered the way the client's revision
// wants (its traits: a handshake or discovery, `resultType`, cache fields, where the server names itself). The
// Streamable HTTP app (streamable-http.ts) picks the revision per request and hands each its revision's handlers.
import { JsonRpcError, RPC_ERROR_CODES, type RpcContext } from '@agentproto/runtime';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { VERSIONS } from '../generated/versions.js';
import { type McpTraits, type McpVersion, VERSION_TRAITS } from '../version-traits.js';
import type {
  CallContext,
  McpServerDefinition,
  ResourceContents,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definition.js';

// ajv-formats is CommonJS; its default export arrives under `.default` when imported from ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** A method's handler as the runtime calls it: the params as validated, the request's context. */
type Handler = (params: Record<string, unknown>, context: RpcContext) => unknown;

/** The revisions that open with `initialize`, newest last: the one `initialize` settles on when asked for another. */
const HANDSHAKE_VERSIONS = VERSIONS.filter((v) => VERSION_TRAITS[v].handshake);

/** The `_meta` key under which a revision without a handshake names the server in each result. */
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** The most values one `completion/complete` answer holds (the specification's bound). */
const MAX_COMPLETIONS = 100;

/** Where the error for a resource nobody serves comes from: its own code before 2026-07-28, invalid params since. */
function resourceNotFound(traits: McpTraits, uri: string): JsonRpcError {
  return new JsonRpcError(traits.handshake ? -32002 : RPC_ERROR_CODES.invalidParams, 'Resource not found', {
    uri,
  });
}

/** The capabilities a definition gives the server. */
export function capabilitiesOf(server: McpServerDefinition): Record<string, unknown> {
  const completes =
    server.prompts?.some((p) => p.complete) || server.resourceTemplates?.some((t) => t.complete);
  return {
    ...(server.tools ? { tools: { listChanged: false } } : {}),
    ...(server.resources || server.resourceTemplates
      ? { resources: { subscribe: false, listChanged: false } }
      : {}),
    ...(server.prompts ? { prompts: { listChanged: false } } : {}),
    ...(completes ? { completions: {} } : {}),
  };
}

/** The JSON-RPC handlers of a server definition for one revision, keyed by method name. */
export function rpcHandlersFor(version: McpVersion, server: McpServerDefinition): Record<string, Handler> {
  const traits = VERSION_TRAITS[version];
  const cache = server.cache ?? { ttlMs: 60_000, scope: 'private' as const };
  const checks = new Map<ToolDefinition, ValidateFunction>();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const inputCheck = (tool: ToolDefinition) => {
    let check = checks.get(tool);
    if (!check) {
      check = ajv.compile(tool.inputSchema);
      checks.set(tool, check);
    }
    return check;
  };
  const callContext = (context: RpcContext): CallContext => ({ signal: context.signal });

  /** Every result as the revision writes it: `resultType`, and the server's name where no handshake gave it. */
  const result = (body: Record<string, unknown>): Record<string, unknown> => ({
    ...body,
    ...(traits.resultType ? { resultType: 'complete' } : {}),
    ...(traits.handshake
      ? {}
      : { _meta: { ...(body._meta as Record<string, unknown> | undefined), [SERVER_INFO]: server.info } }),
  });
  /** A list or read result, with how long it may be kept where the revision says. */
  const cacheable = (body: Record<string, unknown>) =>
    result(traits.cacheableResults ? { ...body, ttlMs: cache.ttlMs, cacheScope: cache.scope } : body);

  const handlers: Record<string, Handler> = {
    initialize: (params) => {
      const asked = String(params.protocolVersion);
      const agreed = HANDSHAKE_VERSIONS.find((v) => v === asked) ?? HANDSHAKE_VERSIONS.at(-1) ?? version;
      return {
        protocolVersion: agreed,
        capabilities: { ...capabilitiesOf(server), logging: {} },
        serverInfo: server.info,
        ...(server.instructions ? { instructions: server.instructions } : {}),
      };
    },
    ping: () => result({}),
    'server/discover': () =>
      cacheable({
        supportedVersions: VERSIONS.filter((v) => !VERSION_TRAITS[v].handshake),
        capabilities: capabilitiesOf(server),
        ...(server.instructions ? { instructions: server.instructions } : {}),
      }),
    'logging/setLevel': () => result({}),
    'tools/list': () =>
      cacheable({
        tools: (server.tools ?? []).map(({ call: _call, ...tool }) => tool),
      }),
    'tools/call': async (params, context) => {
      const name = String(params.name);
      const tool = server.tools?.find((t) => t.name === name);
      if (!tool) throw new JsonRpcError(RPC_ERROR_CODES.invalidParams, `Unknown tool: ${name}`, { name });
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      // Arguments that break the tool's schema are the model's mistake: an error result it can read and correct.
      const check = inputCheck(tool);
      if (!check(args)) {
        const why = (check.errors ?? [])
          .map((e) => `${e.instancePath || '(arguments)'} ${e.message}`)
          .join('; ');
        return result({
          content: [{ type: 'text', text: `Invalid arguments for ${name}: ${why}` }],
          isError: true,
        });
      }
      try {
        return result({ ...(await tool.call(args, callContext(context))) });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return result({ content: [{ type: 'text', text: `${name} failed: ${message}` }], isError: true });
      }
    },
    'resources/list': () =>
      cacheable({
        resources: (server.resources ?? []).map(({ read: _read, ...resource }) => resource),
      }),
    'resources/templates/list': () =>
      cacheable({
        resourceTemplates: (server.resourceTemplates ?? []).map(
          ({ read: _read, complete: _complete, ...template }) => template,
        ),
      }),
    'resources/read': async (params, context) => {
      const uri = String(params.uri);
      const fixed = server.resources?.find((r) => r.uri === uri);
      let contents: ResourceContents[] | undefined = fixed
        ? await fixed.read(callContext(context))
        : undefined;
      for (const template of server.resourceTemplates ?? []) {
        if (contents) break;
        const variables = matchTemplate(template, uri);
        if (variables) contents = await template.read(variables, callContext(context));
      }
      if (!contents) throw resourceNotFound(traits, uri);
      return cacheable({ contents });
    },
    'resources/subscribe': () => result({}),
    'resources/unsubscribe': () => result({}),
    'prompts/list': () =>
      cacheable({
        prompts: (server.prompts ?? []).map(({ get: _get, complete: _complete, ...prompt }) => prompt),
      }),
    'prompts/get': async (params, context) => {
      const name = String(params.name);
      const prompt = server.prompts?.find((p) => p.name === name);
      if (!prompt) throw new JsonRpcError(RPC_ERROR_CODES.invalidParams, `Unknown prompt: ${name}`, { name });
      const args = (params.arguments ?? {}) as Record<string, string>;
      const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined);
      if (missing.length > 0)
        throw new JsonRpcError(
          RPC_ERROR_CODES.invalidParams,
          `Missing required argument${missing.length > 1 ? 's' : ''}: ${missing.map((a) => a.name).join(', ')}`,
        );
      return result({ ...(await prompt.get(args, callContext(context))) });
    },
    'completion/complete': (params) => {
      const ref = params.ref as { type?: string; name?: string; uri?: string };
      const argument = params.argument as { name: string; value: string };
      const owner =
        ref.type === 'ref/prompt'
          ? server.prompts?.find((p) => p.name === ref.name)
          : server.resourceTemplates?.find((t) => t.uriTemplate === ref.uri);
      const values = owner?.complete?.(argument.name, argument.value) ?? [];
      return result({
        completion: {
          values: values.slice(0, MAX_COMPLETIONS),
          total: values.length,
          hasMore: values.length > MAX_COMPLETIONS,
        },
      });
    },
    // The stream itself is the transport's (streamable-http.ts); this is the result that ends it.
    'subscriptions/listen': (_params, context) =>
      result({ _meta: { 'io.modelcontextprotocol/subscriptionId': context.id ?? null } }),
  };
  // This server runs no tasks (it does not announce the capability): the task methods are not served.
  for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list'])
    handlers[method] = () => {
      throw new JsonRpcError(
        RPC_ERROR_CODES.methodNotFound,
        `Method not found: ${method} (this server runs no tasks)`,
      );
    };
  // Notifications from the client need no answer, and this server keeps nothing they would change.
  for (const method of [
    'notifications/initialized',
    'notifications/cancelled',
    'notifications/progress',
    'notifications/roots/list_changed',
    'notifications/tasks/status',
  ])
    handlers[method] = () => undefined;
  return handlers;
}

/**
 * The variables of a URI a level-1 template (`test://template/{id}/data`) matches, or undefined. Each variable takes
 * one or more characters up to the literal text that follows it, never a `/`, `?` or `#`; read left to right, without
 * building a pattern from the template.
 */
export function matchTemplate(
  template: Pick<ResourceTemplateDefinition, 'uriTemplate'>,
  uri: string,
): Record<string, string> | undefined {
  const parts = template.uriTemplate.split(/(\{[A-Za-z0-9_]+\})/);
  const variables: Record<string, string> = {};
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    const name = part.startsWith('{') && part.endsWith('}') ? part.slice(1, -1) : undefined;
    if (name === undefined) {
      if (!uri.startsWith(part, at)) return undefined;
      at += part.length;
      continue;
    }
    // The variable ends where the next literal begins (or at the end of the URI).
    const next = parts[i + 1] ?? '';
    const end = next === '' ? uri.length : uri.indexOf(next, at + 1);
    const value = end < 0 ? '' : uri.slice(at, end);
    if (value === '' || /[/?#]/.test(value)) return undefined;
    try {
      variables[name] = decodeURIComponent(value);
    } catch {
      return undefined; // a malformed escape names no resource
    }
    at = end;
  }
  return at === uri.length ? variables : undefined;
}
