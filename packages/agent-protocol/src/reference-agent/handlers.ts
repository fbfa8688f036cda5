// The reference agent's handlers, one per Agent Protocol v1 operation (AIEF openapi.yml): tasks, steps that run to
// `is_last`, and artifacts uploaded and downloaded, with the status codes upstream's agent answers.
import { contentDisposition, problem } from '@agentproto/runtime';
import type {
  AgentProtocolHandlers,
  Artifact,
  NotFound,
  Problem,
  Step,
  Task,
} from '../generated/v1/index.js';
import { MemoryStore, paginate, type StoredTask, weigh } from './store.js';

/** How many steps the reference agent takes per task; the last one says `is_last`. */
export const STEPS_PER_TASK = 3;

/** The start of a text, for echoing it back: a step never copies a whole (possibly megabyte) input. */
function preview(text: string, length = 200): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

function refused(kind: string, detail: string): { status: 400; body: Problem } {
  return { status: 400, body: problem(400, kind, detail) as Problem };
}

function notFound(what: string, id: string): { status: 404; body: NotFound } {
  // AIEF v1: 404 with a `message` when the identifier names nothing.
  return { status: 404, body: { message: `no ${what} with id "${id}"` } };
}

/**
 * The reference agent's handlers. It plans a fixed number of steps per task: each step echoes its input, the last
 * one writes the task's input to `output.txt` as an agent-created artifact and says `is_last`. A step asked for after
 * the last one is still answered (as upstream's test suite expects) and is again marked last.
 */
export function createReferenceHandlers(store = new MemoryStore()): AgentProtocolHandlers {
  const withTask = <R>(taskId: string, then: (t: StoredTask) => R) => {
    const stored = store.get(taskId);
    return stored ? then(stored) : notFound('task', taskId);
  };
  return {
    createAgentTask({ body }) {
      const task: Task = { task_id: store.newId('task'), artifacts: [] };
      if (body?.input !== undefined) task.input = body.input;
      if (body?.additional_input !== undefined) task.additional_input = body.additional_input;
      store.add(task);
      return { status: 200, body: task };
    },
    listAgentTasks({ query }) {
      const page = paginate(store.list(), query.current_page, query.page_size);
      return { status: 200, body: { tasks: page.items, pagination: page.pagination } };
    },
    getAgentTask({ params }) {
      return withTask(params.task_id, (t) => ({ status: 200 as const, body: t.task }));
    },
    listAgentTaskSteps({ params, query }) {
      return withTask(params.task_id, (t) => {
        const page = paginate(t.steps, query.current_page, query.page_size);
        return { status: 200 as const, body: { steps: page.items, pagination: page.pagination } };
      });
    },
    executeAgentTaskStep({ params, body }) {
      return withTask(params.task_id, (t) => {
        // A task cannot grow without bound: past the retention's step limit the next step is refused (400).
        if (t.steps.length >= store.retention.maxStepsPerTask)
          return refused('step-limit', `a task may take at most ${store.retention.maxStepsPerTask} steps`);
        const number = t.steps.length + 1;
        const isLast = number >= STEPS_PER_TASK;
        const step: Step = {
          task_id: t.task.task_id,
          step_id: store.newId('step'),
          name: isLast ? 'write output' : `think ${number}`,
          status: 'completed',
          input: body?.input ?? null,
          output: isLast
            ? `wrote output.txt for: ${preview(t.task.input ?? '')}`
            : `considered: ${preview(body?.input ?? t.task.input ?? '')}`,
          additional_output: { step_number: number },
          artifacts: [],
          is_last: isLast,
        };
        if (body?.additional_input !== undefined) step.additional_input = body.additional_input;
        // The last step produces the task's result as an agent-created artifact, listed on the step and the task.
        if (isLast) {
          const artifact: Artifact = {
            artifact_id: store.newId('artifact'),
            agent_created: true,
            file_name: 'output.txt',
            relative_path: null,
          };
          // Every output.txt of a task holds the same bytes: encoded once, shared, and weighed once.
          const first = t.output === undefined;
          t.output ??= new TextEncoder().encode(t.task.input ?? '');
          t.artifacts.push({ artifact, bytes: t.output });
          t.task.artifacts.push(artifact);
          step.artifacts.push(artifact);
          if (first) store.grew(t.task.task_id, t.output.byteLength);
        }
        t.steps.push(step);
        store.grew(t.task.task_id, weigh(step));
        return { status: 200 as const, body: step };
      });
    },
    getAgentTaskStep({ params }) {
      return withTask(params.task_id, (t) => {
        const step = t.steps.find((s) => s.step_id === params.step_id);
        return step ? { status: 200 as const, body: step } : notFound('step', params.step_id);
      });
    },
    listAgentTaskArtifacts({ params, query }) {
      return withTask(params.task_id, (t) => {
        const page = paginate(
          t.artifacts.map((a) => a.artifact),
          query.current_page,
          query.page_size,
        );
        return { status: 200 as const, body: { artifacts: page.items, pagination: page.pagination } };
      });
    },
    async uploadAgentTaskArtifacts({ params, body }) {
      const stored = store.get(params.task_id);
      if (!stored) return notFound('task', params.task_id);
      if (stored.artifacts.length >= store.retention.maxArtifactsPerTask)
        return refused(
          'artifact-limit',
          `a task may hold at most ${store.retention.maxArtifactsPerTask} artifacts`,
        );
      const file = body.file;
      const artifact: Artifact = {
        artifact_id: store.newId('artifact'),
        agent_created: false,
        file_name: file instanceof File && file.name !== '' ? file.name : 'upload.bin',
        relative_path: body.relative_path ?? null,
      };
      const bytes = new Uint8Array(await file.arrayBuffer());
      stored.artifacts.push({ artifact, bytes });
      stored.task.artifacts.push(artifact);
      store.grew(stored.task.task_id, bytes.byteLength + weigh(artifact));
      return { status: 200, body: artifact };
    },
    downloadAgentTaskArtifact({ params }) {
      return withTask(params.task_id, (t) => {
        const found = t.artifacts.find((a) => a.artifact.artifact_id === params.artifact_id);
        if (!found) return notFound('artifact', params.artifact_id);
        return {
          status: 200 as const,
          body: found.bytes,
          // Any name a client uploaded, in any script or with control characters, as RFC 6266 allows it.
          headers: { 'content-disposition': contentDisposition(found.artifact.file_name) },
        };
      });
    },
  };
}
