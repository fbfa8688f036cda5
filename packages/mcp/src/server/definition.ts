// What an MCP server is, written once for every revision: who it is, its tools, resources and prompts. The revision a
// client speaks decides how each answer is wrapped (src/server/rpc-handlers.ts), never what the server offers.
import type { LATEST, Schemas } from '../generated/versions.js';

/** The message types of the latest revision, by name: the content a server returns is the same in every revision. */
type Latest = Schemas[typeof LATEST];

/** One piece of content: text, an image, audio, a link to a resource or an embedded resource. */
export type ContentBlock = Latest['ContentBlock'];
/** A message of a rendered prompt. */
export type PromptMessage = Latest['PromptMessage'];
/** The contents of a resource: text, or a base64 blob. */
export type ResourceContents = Latest['TextResourceContents'] | Latest['BlobResourceContents'];
/** Hints about a tool's behaviour (read-only, destructive, idempotent, open-world). */
export type ToolAnnotations = Latest['ToolAnnotations'];

/** Who the server is, as `serverInfo` (or `_meta["io.modelcontextprotocol/serverInfo"]`) says. */
export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
}

/** What a tool call produced; a failure inside the tool is `isError: true`, which the model sees. */
export interface ToolOutput {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** How much a client wants to hear, least to most severe (RFC 5424's levels). */
export type LoggingLevel = Latest['LoggingLevel'];

/** What a server may ask its client in the middle of a request, and what each answer is. */
export interface InputRequestTypes {
  'sampling/createMessage': {
    params: Latest['CreateMessageRequestParams'];
    result: Latest['CreateMessageResult'];
  };
  'elicitation/create': { params: Latest['ElicitRequestParams']; result: Latest['ElicitResult'] };
  'roots/list': { params: Record<string, never>; result: Latest['ListRootsResult'] };
}

/** One question for the client: a method it serves and its params. */
export type InputRequest = {
  [M in keyof InputRequestTypes]: { method: M; params: InputRequestTypes[M]['params'] };
}[keyof InputRequestTypes];

/** The answers to a set of questions, by the key each was asked under. */
export type InputAnswers<R extends Record<string, InputRequest>> = {
  [K in keyof R]: InputRequestTypes[R[K]['method']]['result'];
};

/** What a tool, a resource or a prompt gets beside its arguments. */
export interface CallContext {
  /** Aborts when the client goes away or cancels the request. */
  signal: AbortSignal;
  /** What the client said it can do: its `initialize` capabilities, or those the request's `_meta` declares. */
  clientCapabilities: Readonly<Record<string, unknown>>;
  /**
   * Tells the client how far the work is, when it asked (a `progressToken` in the request's `_meta`); else does
   * nothing. `progress` must grow from one report to the next.
   */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends a log message, when the client asked for messages of this level (or a lower one); else does nothing. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /**
   * Asks the client questions (a model's completion, the user's input, its roots) and resolves with each answer by
   * the key it was asked under. How the question travels is the revision's business: a request on the answer's stream
   * and the client's reply in a POST of its own, or an `input_required` result and the client's retry with
   * `inputResponses` (then the work runs again from the start, and every question it already asked is answered at
   * once: work before a question must be safe to repeat). A question whose capability the client did not declare is
   * refused with MCP's missing-capability error, before anything is sent.
   */
  input<R extends Record<string, InputRequest>>(requests: R): Promise<InputAnswers<R>>;
}

/** A tool the model may call. `inputSchema` (JSON Schema, an object) is checked before `call` runs. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; properties?: Record<string, object>; required?: string[] } & Record<
    string,
    unknown
  >;
  outputSchema?: { type: 'object' } & Record<string, unknown>;
  annotations?: ToolAnnotations;
  call(args: Record<string, unknown>, context: CallContext): ToolOutput | Promise<ToolOutput>;
}

/** A resource at a fixed URI. */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(context: CallContext): ResourceContents[] | Promise<ResourceContents[]>;
}

/** Resources built from a URI template (RFC 6570 level 1: `{name}` segments). */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Reads the resource the template's variables name; undefined when there is none. */
  read(
    variables: Record<string, string>,
    context: CallContext,
  ): ResourceContents[] | undefined | Promise<ResourceContents[] | undefined>;
  /** Candidate values of one variable, given what the user typed so far. */
  complete?(variable: string, value: string): string[];
}

/** An argument of a prompt. */
export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** A prompt template. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  get(
    args: Record<string, string>,
    context: CallContext,
  ):
    | { description?: string; messages: PromptMessage[] }
    | Promise<{ description?: string; messages: PromptMessage[] }>;
  /** Candidate values of one argument, given what the user typed so far. */
  complete?(argument: string, value: string): string[];
}

/** An MCP server, for every revision. */
export interface McpServerDefinition {
  info: ServerIdentity;
  /** How to use the server, for the model's system prompt. */
  instructions?: string;
  tools?: readonly ToolDefinition[];
  resources?: readonly ResourceDefinition[];
  resourceTemplates?: readonly ResourceTemplateDefinition[];
  prompts?: readonly PromptDefinition[];
  /**
   * How long clients and shared caches may keep list and read answers, where the revision says (`ttlMs`,
   * `cacheScope`). Default: 60 s, private.
   */
  cache?: { ttlMs: number; scope: 'public' | 'private' };
}
