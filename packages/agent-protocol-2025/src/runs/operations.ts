// Which work a request starts: ChatRequest, ConfigureRequest or one of the agent's custom operations, a custom
// operation's input checked against its schema before anything runs and its output after. Nothing here touches the
// store: the request lifecycle runs the work this hands it.
import { describeErrors } from '@agentproto/runtime';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { isObjectLike } from '../is-object-like.js';
import type { AgentDefinition, OperationContext, OperationDefinition } from './agent-definition.js';
import { RequestRefused } from './request-outcome.js';
import type { MemoryMessage, RunRecord } from './run-store.js';

/** What a started request does with its run: the handler's work, answering the request's result (if any). */
export type RequestWork = (run: RunRecord, context: OperationContext) => Promise<unknown>;

/** An agent's operations, and the work each request for one of them starts. */
export class Operations {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  /** The agent's custom operations, by name. */
  readonly custom: ReadonlyMap<string, OperationDefinition>;

  constructor(private readonly agent: AgentDefinition) {
    this.custom = new Map((agent.operations ?? []).map((o) => [o.name, o]));
  }

  /**
   * The work a ConfigureRequest, a ChatRequest or a custom operation's request starts. Throws RequestRefused (422)
   * when the agent has no such operation, or when the input breaks the operation's input_schema.
   */
  workFor(r: Record<string, unknown>): RequestWork {
    switch (r.type) {
      // ConfigureRequest sets the run's configuration, for this turn and the next ones.
      case 'ConfigureRequest':
        return async (run) => {
          // The request passed its schema: a ConfigureRequest's args are an object.
          const args = isObjectLike(r.args) ? r.args : {};
          Object.assign(run.config, args);
          await this.agent.configure?.(args, run);
          return undefined;
        };
      // The built-in chat operation: the run's memory keeps both sides of every turn.
      case 'ChatRequest': {
        const input = String(r.input);
        return async (run, context) => {
          run.memory.push({ role: 'user', content: input });
          const answer = await this.agent.chat(input, context);
          run.memory.push({ role: 'assistant', content: answer } satisfies MemoryMessage);
          return answer;
        };
      }
      default:
        return this.customWork(r);
    }
  }

  private customWork(r: Record<string, unknown>): RequestWork {
    const operation = typeof r.type === 'string' ? this.custom.get(r.type) : undefined;
    if (!operation) {
      throw new RequestRefused(422, 'unknown-operation', `${this.agent.name} has no operation "${r.type}"`, [
        {
          pointer: '/type',
          message: `must name an operation of this agent: chat, ${[...this.custom.keys()].join(', ')}`,
          keyword: 'enum',
        },
      ]);
    }
    // A custom operation's input is checked against the input_schema describe advertises (422 before any event),
    // and its output against the output_schema: a handler that breaks it fails its turn, not the client.
    const validate = this.ajv.compile(operation.input);
    if (!validate(r.input)) {
      const issues = describeErrors(validate.errors).map((i) => ({
        ...i,
        pointer: `/input${i.pointer}`,
      }));
      throw new RequestRefused(
        422,
        'invalid-input',
        `the input breaks ${operation.name}'s input_schema`,
        issues,
      );
    }
    const checkOutput = this.ajv.compile(operation.output);
    return async (_run, context) => {
      const output = await operation.handler(r.input, context);
      if (!checkOutput(output)) {
        const first = describeErrors(checkOutput.errors)[0];
        throw new Error(
          `${operation.name} returned an output that breaks its output_schema: ${first?.pointer} ${first?.message}`,
        );
      }
      return output;
    };
  }
}
