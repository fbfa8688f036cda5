// What an agent author writes against: the agent's definition, its typed custom operations, and the context every
// handler gets. Apart from the runtime so that agents depend on these shapes, not on how requests are run.
import type { Static, TSchema } from '@sinclair/typebox';
import type { AgentEvent } from '../generated/draft-2025-02/index.js';
import type { RunRecord } from './run-store.js';

/** What an operation's handler gets: the run's memory, event publishers, human-in-the-loop, cancellation. */
export interface OperationContext {
  /** The request being handled. */
  requestId: string;
  /** The run it belongs to, with `memory` (the chat so far), `config` and `state` kept across turns. */
  run: RunRecord;
  /** Aborts when the request is canceled. */
  signal: AbortSignal;
  /** The request's `request_metadata`: opaque data from the caller, such as the user id or the current time ({}). */
  metadata: Readonly<Record<string, unknown>>;
  /** The request's `run_context`: context the caller passes into the operation, such as `user_context` ({}). */
  runContext: Readonly<Record<string, unknown>>;
  /** The request's `logging_level`, when the caller asked for more (or less) detail. */
  loggingLevel?: string;
  /** Publishes a TextOutput. */
  text(content: string): Promise<void>;
  /** Publishes a ToolCall. */
  toolCall(functionName: string, args: Record<string, unknown>): Promise<void>;
  /** Publishes a ToolResult. */
  toolResult(functionName: string, textResult: string): Promise<void>;
  /** Publishes a ToolTextOutput. */
  toolText(content: string): Promise<void>;
  /** Publishes a ToolError. */
  toolError(content: string): Promise<void>;
  /** Publishes an ArtifactGenerated. */
  artifact(artifact: { name: string; artifact_id: string; url: string; mime_type: string }): Promise<void>;
  /** Publishes a CompletionCall, runs `complete`, publishes a CompletionResult, and returns what `complete` did. */
  completion<T>(complete: () => Promise<T> | T): Promise<T>;
  /**
   * Publishes WaitForInput with these keys (key → what to give) and pauses until a ResumeWithInput brings values.
   * Rejects when the request is canceled meanwhile.
   */
  waitForInput(keys: Record<string, string>): Promise<Record<string, unknown>>;
  /**
   * Publishes an event another agent produced for this one (the draft's caller chain): its content, role and agent as
   * they were, its `depth` one more than the callee's, numbered in this request's run. Only what a callee produces
   * is forwarded (text, tool calls and results, completions, artifacts); its own RequestStarted, RequestCompleted and
   * WaitForInput belong to its request, not to this one, and are refused with a TypeError.
   */
  forward(event: AgentEvent): Promise<void>;
}

/** A custom operation: its schemas (TypeBox, so the handler is typed) and its handler. */
export interface OperationDefinition<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  name: string;
  description: string;
  input: I;
  output: O;
  handler(input: Static<I>, context: OperationContext): Promise<Static<O>> | Static<O>;
}

/**
 * Declares a custom operation. Its input and output are TypeBox schemas: the handler is typed from them, requests
 * are validated against the input, and both appear in `describe` as `input_schema` and `output_schema`.
 */
export function defineOperation<I extends TSchema, O extends TSchema>(
  operation: OperationDefinition<I, O>,
): OperationDefinition<I, O> {
  return operation;
}

/** An agent of the 2025 draft: a name, a purpose, the built-in chat operation, and optional custom operations. */
export interface AgentDefinition {
  name: string;
  purpose: string;
  /** Tools the agent uses, listed in `describe` for information. */
  tools?: readonly string[];
  /** The built-in `chat` operation: an input text in, an answer text out. `context.run.memory` holds earlier turns. */
  chat(input: string, context: OperationContext): Promise<string> | string;
  // biome-ignore lint/suspicious/noExplicitAny: operations of any input and output types are held together
  operations?: ReadonlyArray<OperationDefinition<any, any>>;
  /** Applies a ConfigureRequest's `args` (stored on the run as `run.config` in any case). */
  configure?(args: Record<string, unknown>, run: RunRecord): Promise<void> | void;
}
