// The official A2A TCK (1.0 line) drives the agent under test by the prefix of each message's id: its
// `scenarios/*.feature` files say what an agent does for `tck-complete-task-…`, `tck-artifact-text-…` and so on. This
// table is those scenarios as the reference agent's events; a message whose id has none of the prefixes is planned
// as a trip, as before. Source: a2aproject/a2a-tck, branch 1.0-dev, scenarios/core_operations.feature and
// scenarios/streaming.feature (DECISIONS 99).
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentEvent } from '../agent/agent.js';

/** One step of a scenario: an event, or a pause (in milliseconds) before the next one. */
export type ScenarioStep = AgentEvent | { pauseMs: number };

const working: ScenarioStep = { state: 'TASK_STATE_WORKING' };
const completed: ScenarioStep = { state: 'TASK_STATE_COMPLETED' };
const text = (artifactId: string, value: string): ScenarioStep => ({
  artifact: { artifactId, parts: [{ text: value }] },
});
/** The file part the scenarios name: `output.txt`, `text/plain`, the bytes "tck". */
const file: ScenarioStep = {
  artifact: { artifactId: 'file', parts: [{ raw: 'dGNr', filename: 'output.txt', mediaType: 'text/plain' }] },
};

/** Each scenario by the message id prefix that asks for it. */
export const TCK_SCENARIOS: Readonly<Record<string, readonly ScenarioStep[]>> = {
  // core_operations.feature
  'tck-complete-task': [{ state: 'TASK_STATE_COMPLETED', text: 'Hello from TCK' }],
  'tck-artifact-text': [text('text', 'Generated text content'), completed],
  'tck-artifact-file': [file, completed],
  'tck-artifact-file-url': [
    {
      artifact: {
        artifactId: 'file-url',
        parts: [{ url: 'https://example.com/output.txt', filename: 'output.txt', mediaType: 'text/plain' }],
      },
    },
    completed,
  ],
  'tck-artifact-data': [
    { artifact: { artifactId: 'data', parts: [{ data: { key: 'value', count: 42 } }] } },
    completed,
  ],
  'tck-message-response': [{ reply: 'Direct message response' }],
  'tck-input-required': [{ state: 'TASK_STATE_INPUT_REQUIRED' }],
  'tck-reject-task': [{ state: 'TASK_STATE_REJECTED', text: 'rejected' }],
  // streaming.feature
  'tck-stream-001': [working, text('stream', 'Stream hello from TCK'), completed],
  'tck-stream-002': [completed],
  'tck-stream-003': [working, text('stream', 'Stream task lifecycle'), completed],
  'tck-stream-ordering-001': [working, text('stream', 'Ordered output'), completed],
  'tck-stream-artifact-text': [working, text('stream', 'Streamed text content'), completed],
  'tck-stream-artifact-file': [working, file, completed],
  'tck-stream-artifact-chunked': [
    working,
    text('chunked', 'chunk-1 '),
    { artifact: { artifactId: 'chunked', parts: [{ text: 'chunk-2' }] }, append: true, lastChunk: true },
    completed,
  ],
  // "wait for 2x streaming timeout": the TCK's streaming timeout is 2 s.
  'test-resubscribe-message-id': [working, { pauseMs: 4000 }, completed],
};

/** The prefixes, longest first, so that `tck-artifact-file-url` is not taken for `tck-artifact-file`. */
const PREFIXES = Object.keys(TCK_SCENARIOS).sort((a, b) => b.length - a.length);

/** The scenario a message id asks for, if any. */
export function tckScenario(messageId: string): readonly ScenarioStep[] | undefined {
  const prefix = PREFIXES.find((p) => messageId.startsWith(p));
  return prefix === undefined ? undefined : TCK_SCENARIOS[prefix];
}

/** Plays a scenario's steps as a turn's events; a pause ends early when the task is canceled. */
export async function* playScenario(
  steps: readonly ScenarioStep[],
  signal: AbortSignal,
): AsyncGenerator<AgentEvent> {
  for (const step of steps) {
    if (signal.aborted) return;
    if ('pauseMs' in step) await sleep(step.pauseMs, undefined, { signal }).catch(() => {});
    else yield step;
  }
}
