// The context a running request's handler gets (OperationContext): the request's metadata, its event publishers,
// human in the loop, and forwarding of a callee's events. Built over the request's guarded writes, so a handler
// publishes nothing after its request completed.
import { isObjectLike } from '../is-object-like.js';
import type { OperationContext } from './agent-definition.js';
import type { EventBody, LiveRequest, RequestWrites } from './request-writes.js';

// What a caller may forward from a callee's stream: everything but the callee's own request lifecycle.
const FORWARDABLE = new Set<string>([
  'TextOutput',
  'ToolCall',
  'ToolResult',
  'ToolTextOutput',
  'ToolError',
  'CompletionCall',
  'CompletionResult',
  'ArtifactGenerated',
]);

/** The context of a running request's handler; `r` is the request as submitted. */
export function operationContext(
  live: LiveRequest,
  r: Record<string, unknown>,
  writes: RequestWrites,
): OperationContext {
  const emit = async (body: EventBody) => {
    // A canceled request publishes nothing more: its RequestCompleted was its last event.
    if (live.abort.signal.aborted) return;
    await writes.publish(live, body);
  };
  const object = (x: unknown): Record<string, unknown> => (isObjectLike(x) && !Array.isArray(x) ? x : {});
  return {
    requestId: live.record.request_id,
    run: live.run,
    signal: live.abort.signal,
    metadata: object(r.request_metadata),
    runContext: object(r.run_context),
    ...(typeof r.logging_level === 'string' ? { loggingLevel: r.logging_level } : {}),
    text: (content) => emit({ type: 'TextOutput', role: 'assistant', content }),
    toolCall: (function_name, args) => emit({ type: 'ToolCall', role: 'assistant', function_name, args }),
    toolResult: (function_name, text_result) =>
      emit({ type: 'ToolResult', role: 'tool', function_name, text_result }),
    toolText: (content) => emit({ type: 'ToolTextOutput', role: 'tool', content }),
    toolError: (content) => emit({ type: 'ToolError', role: 'tool', content }),
    artifact: (a) => emit({ type: 'ArtifactGenerated', role: 'assistant', ...a }),
    // A model call, bracketed by CompletionCall and CompletionResult events so clients can show it happening.
    completion: async (complete) => {
      await emit({ type: 'CompletionCall', role: 'assistant' });
      const result = await complete();
      await emit({ type: 'CompletionResult', role: 'assistant' });
      return result;
    },
    // Human in the loop (draft README "WaitForInput"): the request pauses, publishes the keys it needs, and goes on
    // when ResumeWithInput brings their values (or ends when it is cancelled). The ResumeWithInput may reach any
    // process sharing the store; it reaches this one through the control log.
    waitForInput: async (keys) => {
      if (live.abort.signal.aborted) throw live.abort.signal.reason;
      const values = new Promise<Record<string, unknown>>((resolve, reject) => {
        live.resume = { resolve, reject };
      });
      const paused = await writes.change(live, (record) => {
        if (record.status === 'completed') return false;
        record.status = 'waiting_for_input';
        return true;
      });
      if (!paused) throw new Error('the request was canceled');
      await emit({ type: 'WaitForInput', role: 'assistant', request_keys: keys });
      return values;
    },
    forward: async (event) => {
      if (!FORWARDABLE.has(event.type))
        throw new TypeError(
          `${event.type} belongs to the callee's own request: forward what it produced (text, tools, completions, artifacts)`,
        );
      // The callee's numbering, run and request are its own; this request's take their place.
      const { id: _id, run_id: _run, request_id: _request, ...produced } = event;
      await emit({ ...produced, depth: (event.depth ?? 0) + 1 });
    },
  };
}
