// The Fixie agent factories (fixieai 1.0 agent_base.py): a code-shot agent (prompt, few-shots, functions, corpora)
// or a standalone one, as Hono apps; a few-shot that breaks the grammar or calls no function refuses to start.
import type { AppOptions } from '@agentproto/runtime';
import { type Context, Hono } from 'hono';
import {
  BUILT_IN_FUNCTIONS,
  formatFewShotIssue,
  splitFewShots,
  validateFewShots,
} from '../few-shot/grammar.js';
import type {
  AgentMetadata,
  AgentQuery,
  AgentResponse,
  CorpusRequest,
  CorpusResponse,
  CustomCorpus,
  FixieHandlers,
  LlmSettings,
  Message,
  UrlDocumentCorpus,
} from '../generated/1.0/index.js';
import { GENERATED } from '../generated/modules.js';
import { LATEST, type Version } from '../generated/versions.js';
import { bearerAuth, TOKEN_VARIABLE, type TokenVerifier, type VerifiedToken } from './auth.js';

/** What a function or a standalone agent receives besides the query. */
export interface CallContext {
  /** The caller's verified token, when the agent checks tokens. */
  token?: VerifiedToken;
  /** Aborts when the caller goes away. */
  signal: AbortSignal;
  /** The HTTP request, for headers. */
  request: Request;
}

/** What a function may return: a text, a message (text and embeds), or a whole response. */
export type FunctionResult = string | Message | AgentResponse;

/** A function of a code-shot agent: called at `POST /{name}` with the query the model wrote. */
export type FixieFunction = (
  query: AgentQuery,
  context: CallContext,
) => FunctionResult | Promise<FunctionResult>;

/** A corpus function: called at `POST /corpus/{name}` for partitions and pages of documents. */
export type CorpusFunction = (
  request: CorpusRequest,
  context: CallContext,
) => CorpusResponse | Promise<CorpusResponse>;

/** What both kinds of agent share. */
interface AgentCommon {
  /** Check bearer tokens: a verifier (such as `fixieTokenVerifier(...)`), or none to accept every caller. */
  auth?: TokenVerifier;
  /** Told about errors functions throw and answers that break the protocol. Default: console.error. */
  onError?: (error: unknown, where: string) => void;
  /** Options of the generated app (response validation). */
  app?: Omit<AppOptions, 'onError' | 'app'>;
}

/** A code-shot agent: a prompt, few-shots that name its functions, and the functions. */
export interface CodeShotAgentDefinition extends AgentCommon {
  basePrompt: string;
  /** The few-shots: a list, or one text split as the SDK did (before each `Q:` after a blank line). */
  fewShots: string | readonly string[];
  /** Whether a few-shot may hold several Q…A turns. */
  conversational?: boolean;
  functions: Readonly<Record<string, FixieFunction>>;
  corpora?: ReadonlyArray<UrlDocumentCorpus | CustomCorpus>;
  corpusFunctions?: Readonly<Record<string, CorpusFunction>>;
  responseModel?: LlmSettings;
}

/** A standalone agent: it answers whole queries itself, streaming responses. */
export interface StandaloneAgentDefinition extends AgentCommon {
  sampleQueries?: readonly string[];
  /** Answers a query at `POST /`: yield texts, messages or responses; each becomes one NDJSON line. */
  answer(query: AgentQuery, context: CallContext): AsyncIterable<FunctionResult>;
  /** Functions it also serves at `POST /{name}`. */
  functions?: Readonly<Record<string, FixieFunction>>;
}

/** An agent definition the factory refuses: the few-shots break the grammar or name undefined functions. */
export class FixieDefinitionError extends Error {
  override name = 'FixieDefinitionError';
  constructor(readonly problems: readonly string[]) {
    super(`the agent cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const NAME = /^\w+$/;

/**
 * Builds the Hono app of a code-shot agent. Before anything is served it checks the definition: every few-shot
 * against the grammar, every `Func[name]` against the registered functions (or a built-in `fixie_*`), every function
 * and custom corpus name; it throws FixieDefinitionError listing each problem instead of starting.
 */
export function createCodeShotAgent(definition: CodeShotAgentDefinition, version: Version = LATEST): Hono {
  const fewShots =
    typeof definition.fewShots === 'string' ? splitFewShots(definition.fewShots) : [...definition.fewShots];
  const functions = definition.functions;
  const corpusFunctions = definition.corpusFunctions ?? {};
  // Everything wrong with the definition is reported at once, before the agent serves anything: a few-shot the
  // platform's model would learn a broken call from is worse than an agent that does not start.
  const problems = [
    ...namesProblems(functions, 'function'),
    ...namesProblems(corpusFunctions, 'corpus function'),
    ...validateFewShots(fewShots, {
      conversational: definition.conversational ?? false,
      functions: Object.keys(functions),
    }).map(formatFewShotIssue),
    ...(definition.corpora ?? [])
      .filter(
        (c): c is CustomCorpus =>
          typeof c.func_name === 'string' && !Object.hasOwn(corpusFunctions, c.func_name),
      )
      .map((c) => `corpus function "${String(c.func_name)}" is listed in corpora but not defined`),
  ];
  if (problems.length > 0) throw new FixieDefinitionError(problems);
  // The handshake (`GET /`), as fixieai 1.0's CodeShotAgent serialized it: every key present, null when unset.
  const metadata = {
    base_prompt: definition.basePrompt,
    few_shots: fewShots,
    corpora: definition.corpora ? [...definition.corpora] : null,
    conversational: definition.conversational ?? false,
    response_model: definition.responseModel ?? null,
    type: 'code_shot' as const,
  };
  return buildApp(version, definition, metadata, functions, corpusFunctions, undefined);
}

/** Builds the Hono app of a standalone agent, which streams its answers to `POST /` as newline-delimited JSON. */
export function createStandaloneAgent(
  definition: StandaloneAgentDefinition,
  version: Version = LATEST,
): Hono {
  const functions = definition.functions ?? {};
  const problems = namesProblems(functions, 'function');
  if (problems.length > 0) throw new FixieDefinitionError(problems);
  const metadata = {
    sample_queries: definition.sampleQueries ? [...definition.sampleQueries] : null,
    type: 'standalone' as const,
  };
  return buildApp(version, definition, metadata, functions, {}, definition.answer);
}

/** Names a function table must not use: non-word names (they are URL path segments) and the built-ins'. */
function namesProblems(table: Readonly<Record<string, unknown>>, what: string): string[] {
  return Object.keys(table)
    .filter((name) => !NAME.test(name) || BUILT_IN_FUNCTIONS.some((f) => f === name))
    .map((name) =>
      NAME.test(name)
        ? `${what} "${name}" has the name of a built-in function`
        : `${what} "${name}" is not a name (word characters only)`,
    );
}

/** The response a function's result becomes: embeds always present, as the SDK sent them. */
export function toResponse(result: FunctionResult): AgentResponse {
  if (typeof result === 'string') return { message: { text: result, embeds: {} } };
  if (isResponse(result)) return { ...result, message: { embeds: {}, ...result.message } };
  return { message: { embeds: {}, ...result } };
}

/**
 * Whether a function's result is a whole response rather than a message: a response is the one with `message` (both
 * allow other keys, so `in` alone does not tell the types apart).
 */
function isResponse(result: Message | AgentResponse): result is AgentResponse {
  return 'message' in result;
}

/** An error answer as fixieai 1.0 wrote it: the message as text, and the error's code and details beside it. */
function failure(code: string, message: string, details: Record<string, unknown> | null): AgentResponse {
  return { message: { text: message, embeds: {} }, error: { code, message, details } };
}

/** The agent's Hono app over the generated routes: auth, the handshake, functions, corpus pages and streams. */
function buildApp(
  version: Version,
  definition: AgentCommon,
  metadata: AgentMetadata,
  functions: Readonly<Record<string, FixieFunction>>,
  corpusFunctions: Readonly<Record<string, CorpusFunction>>,
  answer: StandaloneAgentDefinition['answer'] | undefined,
): Hono {
  const onError =
    definition.onError ?? ((error: unknown, where: string) => console.error(`[fixie ${where}]`, error));
  const app = new Hono();
  if (definition.auth) app.use('*', bearerAuth(definition.auth));
  const context = (c: Context, signal: AbortSignal, request: Request): CallContext => {
    const token = c.get(TOKEN_VARIABLE);
    return { signal, request, ...(token ? { token } : {}) };
  };
  // SDK: a body's access_token must equal the bearer token, and is replaced by it.
  const withToken = (c: Context, query: AgentQuery): AgentQuery | 'mismatch' => {
    const token = c.get(TOKEN_VARIABLE);
    if (!token) return query;
    if (typeof query.access_token === 'string' && query.access_token !== token.token) return 'mismatch';
    return { ...query, access_token: token.token };
  };
  // fixieai 1.0's error codes: an unknown function is ERR_FUNC_NOT_DEFINED (with what is available); a function
  // that throws is ERR_AGENT_UNHANDLED_EXCEPTION, and its error goes to the log, not to the caller.
  const notDefined = (kind: string, name: string, available: string[]) =>
    failure('ERR_FUNC_NOT_DEFINED', `${kind}[${name}] is not defined by this agent`, {
      func_name: name,
      available_funcs: available,
    });
  const unhandled = (name: string) =>
    failure('ERR_AGENT_UNHANDLED_EXCEPTION', `Func[${name}] failed; the agent logged the error`, {
      func_name: name,
    });

  const handlers: FixieHandlers = {
    getMetadata: () => ({ status: 200, body: metadata }),
    invokeFunction: async ({ params, body, request, signal }, c) => {
      const fn = Object.hasOwn(functions, params.func) ? functions[params.func] : undefined;
      if (!fn) return { status: 404, body: notDefined('Func', params.func, Object.keys(functions)) };
      const query = withToken(c, body);
      if (query === 'mismatch') return { status: 403, body: { detail: 'Mismatched tokens' } };
      try {
        return { status: 200, body: toResponse(await fn(query, context(c, signal, request))) };
      } catch (error) {
        onError(error, `Func[${params.func}]`);
        return { status: 500, body: unhandled(params.func) };
      }
    },
    queryStandalone: ({ body, request, signal }, c) => {
      if (!answer)
        return {
          status: 404,
          body: failure(
            'ERR_FUNC_NOT_DEFINED',
            'this is a code-shot agent: call its functions at POST /{func}',
            null,
          ),
        };
      const query = withToken(c, body);
      if (query === 'mismatch') return { status: 403, body: { detail: 'Mismatched tokens' } };
      const results = answer(query, context(c, signal, request));
      async function* lines(): AsyncGenerator<AgentResponse> {
        try {
          for await (const r of results) yield toResponse(r);
        } catch (error) {
          // Headers are sent: the failure travels as the stream's last line.
          onError(error, 'standalone');
          yield unhandled('standalone');
        }
      }
      return { status: 200, body: lines() };
    },
    queryCorpus: async ({ params, body, request, signal }, c) => {
      const fn = Object.hasOwn(corpusFunctions, params.func) ? corpusFunctions[params.func] : undefined;
      if (!fn) return { status: 404, body: notDefined('Corpus', params.func, Object.keys(corpusFunctions)) };
      try {
        return { status: 200, body: await fn(body, context(c, signal, request)) };
      } catch (error) {
        onError(error, `corpus ${params.func}`);
        return { status: 500, body: unhandled(params.func) };
      }
    },
  };
  // The version's own routes: requests and answers are checked against its schemas.
  return GENERATED[version].createFixieApp(handlers, {
    ...definition.app,
    app,
    onError: (error, where) => onError(error, where),
  });
}
