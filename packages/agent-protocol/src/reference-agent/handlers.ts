import type { AgentProtocolHandlers, Artifact, NotFound, Step, Task } from '../generated/v1/index.js';
import { MemoryStore, paginate, type StoredTask } from './store.js';

/** How many steps the reference agent takes per task; the last one says `is_last`. */
export const STEPS_PER_TASK = 3;

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
        const number = t.steps.length + 1;
        const isLast = number >= STEPS_PER_TASK;
        const step: Step = {
          task_id: t.task.task_id,
          step_id: store.newId('step'),
          name: isLast ? 'write output' : `think ${number}`,
          status: 'completed',
          input: body?.input ?? null,
          output: isLast
            ? `wrote output.txt for: ${t.task.input ?? ''}`
            : `considered: ${body?.input ?? t.task.input ?? ''}`,
          additional_output: { step_number: number },
          artifacts: [],
          is_last: isLast,
        };
        if (body?.additional_input !== undefined) step.additional_input = body.additional_input;
        if (isLast) {
          const artifact: Artifact = {
            artifact_id: store.newId('artifact'),
            agent_created: true,
            file_name: 'output.txt',
            relative_path: null,
          };
          t.artifacts.push({ artifact, bytes: new TextEncoder().encode(t.task.input ?? '') });
          t.task.artifacts.push(artifact);
          step.artifacts.push(artifact);
        }
        t.steps.push(step);
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
      const file = body.file;
      const artifact: Artifact = {
        artifact_id: store.newId('artifact'),
        agent_created: false,
        file_name: file instanceof File && file.name !== '' ? file.name : 'upload.bin',
        relative_path: body.relative_path ?? null,
      };
      stored.artifacts.push({ artifact, bytes: new Uint8Array(await file.arrayBuffer()) });
      stored.task.artifacts.push(artifact);
      return { status: 200, body: artifact };
    },
    downloadAgentTaskArtifact({ params }) {
      return withTask(params.task_id, (t) => {
        const found = t.artifacts.find((a) => a.artifact.artifact_id === params.artifact_id);
        if (!found) return notFound('artifact', params.artifact_id);
        return {
          status: 200 as const,
          body: found.bytes,
          headers: {
            'content-disposition': `attachment; filename="${found.artifact.file_name.replaceAll('"', '')}"`,
          },
        };
      });
    },
  };
}
