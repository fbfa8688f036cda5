// One handler set for every MCP revision: the methods of a server definition, answered the way the client's revision
// wants (its traits: a handshake or discovery, `resultType`, cache fields, where the server names itself). The
// Streamable HTTP app (streamable-http.ts) picks the revision per request and hands each its revision's handlers.
import { JsonRpcError, RPC_ERROR_CODES, type RpcContext, type Validator } from '@agentproto/runtime';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { GENERATED } from '../generated/modules.js';
import { VERSIONS } from '../generated/versions.js';
import { isObjectLike } from '../is-object-like.js';
import { type McpTraits, type McpVersion, VERSION_TRAITS } from '../version-traits.js';
import type {
  CallContext,
  InputAnswers,
  InputRequest,
  LoggingLevel,
  McpServerDefinition,
  ResourceContents,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definition.js';
import { type Exchange, exchangeOf, isWanted } from './exchange.js';
import {
  canonicalJson,
  InputRefusal,
  InputRequired,
  type InputStateOptions,
  inputStateOptions,
  openState,
  sealState,
} from './input-rounds.js';

// ajv-formats is CommonJS: its types put the plugin under `.default`, and so does the module itself (the plugin is
// `module.exports` and its own `.default`), whichever of the two an ESM import hands us.
const addFormats = addFormatsModule.default;

/** A method's handler as the runtime calls it: the params as validated, the request's context. */
type Handler = (params: Record<string, unknown>, context: RpcContext) => unknown;

/** The revisions that open with `initialize`, newest last: the one `initialize` settles on when asked for another. */
const HANDSHAKE_VERSIONS = VERSIONS.filter((v) => VERSION_TRAITS[v].handshake);

/** The `_meta` key under which a revision without a handshake names the server in each result. */
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
/** The `_meta` keys under which a request of a revision without a handshake says what the client can do and hear. */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

/** What each question a server may ask needs the client to have declared, and the schema of its answer. */
const INPUT_METHODS: Readonly<Record<InputRequest['method'], { capability: string; answer: string }>> = {
  'sampling/createMessage': { capability: 'sampling', answer: 'CreateMessageResult' },
  'elicitation/create': { capability: 'elicitation', answer: 'ElicitResult' },
  'roots/list': { capability: 'roots', answer: 'ListRootsResult' },
};

/** The JSON-RPC code of a request refused for a capability the client did not declare (revisions that define it). */
const MISSING_CAPABILITY = -32021;

/** What a server's handlers need beside its definition. */
export interface HandlerOptions {
  /** The revisions the server serves, which `server/discover` lists (default: every revision of this package). */
  versions: readonly McpVersion[];
  /** How multi-round-trip state is signed (default: a random key per server, 10 minutes). */
  inputState: InputStateOptions;
}

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
export function rpcHandlersFor(
  version: McpVersion,
  server: McpServerDefinition,
  options: Partial<HandlerOptions> = {},
): Record<string, Handler> {
  const traits = VERSION_TRAITS[version];
  const served = options.versions ?? VERSIONS;
  const stateOptions = options.inputState ?? inputStateOptions();
  const answerChecks: Readonly<Record<string, Validator>> = GENERATED[version].validators;
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

  /**
   * The answer a client gave to a question, checked against the question's result schema: a wrong one in a retry's
   * `inputResponses` is the request's -32602; a wrong reply on the stream fails the work, as any other failure would.
   */
  const checkedAnswer = (key: string, method: InputRequest['method'], answer: unknown): unknown => {
    const check = answerChecks[INPUT_METHODS[method].answer];
    if (!check || check(answer)) return answer;
    const why = `The answer to "${key}" is not a ${INPUT_METHODS[method].answer}`;
    if (traits.inputRequired) throw new InputRefusal(RPC_ERROR_CODES.invalidParams, why, { key });
    throw new Error(why);
  };

  /**
   * The context a tool, resource or prompt runs with. `rounds` (revisions answered with `input_required`) holds the
   * answers known so far and records which of them the work used.
   */
  const callContext = (
    context: RpcContext,
    params: Record<string, unknown>,
    rounds?: { answers: Record<string, unknown>; used: Set<string> },
  ): CallContext => {
    const exchange: Exchange = exchangeOf(context.request);
    // The params passed the method's validator: `_meta`, and the capabilities in it, are objects where present.
    const meta = isObjectLike(params._meta) ? params._meta : {};
    const declared = meta[CLIENT_CAPABILITIES];
    const capabilities = traits.handshake
      ? exchange.clientCapabilities
      : isObjectLike(declared)
        ? declared
        : {};
    // sound: the params passed the method's validator, whose `_meta` schema says the log level is a LoggingLevel.
    const logLevel = traits.handshake ? exchange.logLevel : (meta[LOG_LEVEL] as LoggingLevel | undefined);
    const token = meta.progressToken;
    return {
      // Read when the work asks for it: a signal that follows the request costs an AbortController and a listener.
      get signal() {
        return context.signal;
      },
      clientCapabilities: capabilities,
      progress(progress, total, message) {
        if (token === undefined) return;
        exchange.notify('notifications/progress', {
          progressToken: token,
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        });
      },
      log(level, data, logger) {
        if (!isWanted(level, logLevel)) return;
        exchange.notify('notifications/message', {
          level,
          data,
          ...(logger !== undefined ? { logger } : {}),
        });
      },
      async input<R extends Record<string, InputRequest>>(requests: R): Promise<InputAnswers<R>> {
        const asked: Readonly<Record<string, InputRequest>> = requests;
        const entries = Object.entries(asked);
        const missing = [
          ...new Set(
            entries.map(([, r]) => INPUT_METHODS[r.method].capability).filter((c) => !(c in capabilities)),
          ),
        ];
        if (missing.length > 0) {
          const why = `the client did not declare ${missing.join(', ')}`;
          if (traits.capabilityError)
            throw new InputRefusal(MISSING_CAPABILITY, `Missing required client capability: ${why}`, {
              requiredCapabilities: Object.fromEntries(missing.map((c) => [c, {}])),
            });
          throw new Error(`cannot ask: ${why}`);
        }
        const answers: Record<string, unknown> = {};
        if (rounds) {
          const unanswered = entries.filter(([key]) => !(key in rounds.answers));
          for (const [key] of entries) if (key in rounds.answers) rounds.used.add(key);
          if (unanswered.length > 0) throw new InputRequired(Object.fromEntries(unanswered), rounds.answers);
          for (const [key, r] of entries) answers[key] = checkedAnswer(key, r.method, rounds.answers[key]);
        } else {
          const replies = await Promise.all(
            entries.map(([, r]) => exchange.request(r.method, r.params, context.signal)),
          );
          entries.forEach(([key, r], i) => {
            answers[key] = checkedAnswer(key, r.method, replies[i]);
          });
        }
        // sound: each answer is under the key its question was asked under, and checkedAnswer held it to the schema
        // of that question's result, which is what InputAnswers says of each key.
        return answers as InputAnswers<R>;
      },
    };
  };

  /**
   * Runs a tool, resource read or prompt that may ask the client questions. Where the revision answers
   * `input_required`, the retry's `requestState` (checked) and `inputResponses` are the answers known so far; a
   * question not answered yet ends the round with the questions and the signed state.
   */
  const withInput = async (
    params: Record<string, unknown>,
    context: RpcContext,
    requestOf: () => string,
    run: (call: CallContext) => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> => {
    if (!traits.inputRequired) return result(await run(callContext(context, params)));
    const request = requestOf();
    const state = typeof params.requestState === 'string' ? params.requestState : undefined;
    const answers: Record<string, unknown> = {
      ...(state !== undefined ? openState(stateOptions, request, state) : {}),
      ...(params.inputResponses ?? {}),
    };
    const rounds = { answers, used: new Set<string>() };
    try {
      return result(await run(callContext(context, params, rounds)));
    } catch (error) {
      if (!(error instanceof InputRequired)) throw error;
      const kept = Object.fromEntries([...rounds.used].map((k) => [k, answers[k]]));
      return {
        ...result({ inputRequests: error.requests, requestState: sealState(stateOptions, request, kept) }),
        resultType: 'input_required',
      };
    }
  };
  /** What a round's state is tied to: the method, the name it asks for and its arguments (made only for rounds). */
  const requestKey = (method: string, name: unknown, args: unknown) => () =>
    `${method}\n${String(name)}\n${canonicalJson(args ?? {})}`;

  /** Every result as the revision writes it: `resultType`, and the server's name where no handshake gave it. */
  const result = (body: Record<string, unknown>): Record<string, unknown> => ({
    ...body,
    ...(traits.resultType ? { resultType: 'complete' } : {}),
    ...(traits.handshake ? {} : { _meta: { ...(body._meta ?? {}), [SERVER_INFO]: server.info } }),
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
        supportedVersions: served,
        capabilities: capabilitiesOf(server),
        ...(server.instructions ? { instructions: server.instructions } : {}),
      }),
    'logging/setLevel': (params, context) => {
      // sound: the params passed the method's validator, which holds `level` to LoggingLevel.
      exchangeOf(context.request).setLogLevel(params.level as LoggingLevel);
      return result({});
    },
    'tools/list': () =>
      cacheable({
        tools: (server.tools ?? []).map(({ call: _call, ...tool }) => tool),
      }),
    'tools/call': async (params, context) => {
      const name = String(params.name);
      const tool = server.tools?.find((t) => t.name === name);
      if (!tool) throw new JsonRpcError(RPC_ERROR_CODES.invalidParams, `Unknown tool: ${name}`, { name });
      const args = isObjectLike(params.arguments) ? params.arguments : {};
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
      return withInput(params, context, requestKey('tools/call', name, args), async (call) => {
        try {
          return { ...(await tool.call(args, call)) };
        } catch (error) {
          // A question not answered yet, or a refusal of the request `input` made, is the request's answer; any other
          // failure (a JsonRpcError from a service the tool calls included) is the tool's, which the model reads.
          if (error instanceof InputRequired || error instanceof InputRefusal) throw error;
          const message = error instanceof Error ? error.message : String(error);
          return { content: [{ type: 'text', text: `${name} failed: ${message}` }], isError: true };
        }
      });
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
      // A read may ask the client too: it goes through the rounds like a tool call.
      const answer = await withInput(params, context, requestKey('resources/read', uri, {}), async (call) => {
        let contents: ResourceContents[] | undefined = fixed ? await fixed.read(call) : undefined;
        for (const template of server.resourceTemplates ?? []) {
          if (contents) break;
          const variables = matchTemplate(template, uri);
          if (variables) contents = await template.read(variables, call);
        }
        if (!contents) throw resourceNotFound(traits, uri);
        return { contents };
      });
      return answer.resultType === 'input_required' || !traits.cacheableResults
        ? answer
        : { ...answer, ttlMs: cache.ttlMs, cacheScope: cache.scope };
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
      // sound: the params passed the method's validator, which holds prompt arguments to strings by name.
      const args = (params.arguments ?? {}) as Record<string, string>;
      const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined);
      if (missing.length > 0)
        throw new JsonRpcError(
          RPC_ERROR_CODES.invalidParams,
          `Missing required argument${missing.length > 1 ? 's' : ''}: ${missing.map((a) => a.name).join(', ')}`,
        );
      return withInput(params, context, requestKey('prompts/get', name, args), async (call) => ({
        ...(await prompt.get(args, call)),
      }));
    },
    'completion/complete': (params) => {
      // sound: the params passed the method's validator: `ref` is a prompt or a template reference, and `argument`
      // has a string name and value.
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
