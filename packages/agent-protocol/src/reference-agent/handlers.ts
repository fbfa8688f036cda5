// The reference agent's handlers, one per Agent Protocol v1 operation (AIEF openapi.yml): tasks, steps that run to
// `is_last`, and artifacts uploaded and downloaded, with the status codes upstream's agent answers.
import { contentDisposition, problem } from '@agentproto/runtime';
import type {
  AgentProtocolHandlers,
  Artifact,
  ExecuteAgentTaskStepResult,
  NotFound,
  Problem,
  Step,
  Task,
  UploadAgentTaskArtifactsResult,
} from '../generated/v1/index.js';
import type { StoredTask } from './store.js';
import { paginate, TaskStore } from './store.js';

/** What a change to a task answers: the handler's result, and whether the changed task is to be written. */
type Change<R> = { result: R; write: boolean };

/** How many steps the reference agent takes per task; the last one says `is_last`. */
export const STEPS_PER_TASK = 3;

/** The start of a text, for echoing it back: a step never copies a whole (possibly megabyte) input. */
function preview(text: string, length = 200): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

function refused(kind: string, detail: string): { status: 400; body: Problem } {
  // sound: the runtime's Problem is this shape, declared as an interface, which TypeScript will not take for a type
  // that allows other keys (as the generated Problem does).
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
export function createReferenceHandlers(store = new TaskStore()): AgentProtocolHandlers {
  return {
    async createAgentTask({ body }) {
      const task: Task = { task_id: await store.newId('task'), artifacts: [] };
      if (body?.input !== undefined) task.input = body.input;
      if (body?.additional_input !== undefined) task.additional_input = body.additional_input;
      await store.add(task);
      return { status: 200, body: task };
    },
    async listAgentTasks({ query }) {
      const page = await store.page(query.current_page, query.page_size);
      return { status: 200, body: { tasks: page.items, pagination: page.pagination } };
    },
    async getAgentTask({ params }) {
      const t = await store.get(params.task_id);
      return t ? { status: 200, body: t.task } : notFound('task', params.task_id);
    },
    async listAgentTaskSteps({ params, query }) {
      const t = await store.get(params.task_id);
      if (!t) return notFound('task', params.task_id);
      const page = paginate(t.steps, query.current_page, query.page_size);
      return { status: 200, body: { steps: page.items, pagination: page.pagination } };
    },
    async executeAgentTaskStep({ params, body }) {
      const before = await store.get(params.task_id);
      if (!before) return notFound('task', params.task_id);
      // Ids are drawn before the change, which may run more than once when another process writes the task; an
      // artifact id only for a step that will be last.
      const stepId = await store.newId('step');
      const artifactId =
        before.steps.length + 1 >= STEPS_PER_TASK ? await store.newId('artifact') : `artifact-of-${stepId}`;
      let outputKey: string | undefined;
      const answer = await store.update(
        params.task_id,
        (t: StoredTask): Change<ExecuteAgentTaskStepResult> => {
          // A task cannot grow without bound: past the step limit the next step is refused (400).
          if (t.steps.length >= store.limits.maxStepsPerTask)
            return {
              result: refused('step-limit', `a task may take at most ${store.limits.maxStepsPerTask} steps`),
              write: false,
            };
          const number = t.steps.length + 1;
          const isLast = number >= STEPS_PER_TASK;
          const step: Step = {
            task_id: t.task.task_id,
            step_id: stepId,
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
              artifact_id: artifactId,
              agent_created: true,
              file_name: 'output.txt',
              relative_path: null,
            };
            // Every output.txt of a task holds the same bytes: written once, under one key.
            outputKey = `ap-v1/${t.task.task_id}/output.txt`;
            t.blobs[artifactId] = outputKey;
            t.artifacts.push(artifact);
            t.task.artifacts.push(artifact);
            step.artifacts.push(artifact);
          }
          t.steps.push(step);
          return { result: { status: 200 as const, body: step }, write: true };
        },
      );
      if (!answer) return notFound('task', params.task_id);
      if (answer.status === 200 && outputKey) {
        const task = await store.get(params.task_id);
        if (task && (await store.store.getBlob(outputKey)) === undefined)
          await store.putBytes(
            task.task.task_id,
            'output.txt',
            new TextEncoder().encode(task.task.input ?? ''),
          );
      }
      return answer;
    },
    async getAgentTaskStep({ params }) {
      const t = await store.get(params.task_id);
      if (!t) return notFound('task', params.task_id);
      const step = t.steps.find((s) => s.step_id === params.step_id);
      return step ? { status: 200, body: step } : notFound('step', params.step_id);
    },
    async listAgentTaskArtifacts({ params, query }) {
      const t = await store.get(params.task_id);
      if (!t) return notFound('task', params.task_id);
      const page = paginate(t.artifacts, query.current_page, query.page_size);
      return { status: 200, body: { artifacts: page.items, pagination: page.pagination } };
    },
    async uploadAgentTaskArtifacts({ params, body }) {
      const file = body.file;
      const artifactId = await store.newId('artifact');
      const artifact: Artifact = {
        artifact_id: artifactId,
        agent_created: false,
        file_name: file instanceof File && file.name !== '' ? file.name : 'upload.bin',
        relative_path: body.relative_path ?? null,
      };
      const known = await store.get(params.task_id);
      if (!known) return notFound('task', params.task_id);
      if (known.artifacts.length >= store.limits.maxArtifactsPerTask)
        return refused(
          'artifact-limit',
          `a task may hold at most ${store.limits.maxArtifactsPerTask} artifacts`,
        );
      // The bytes go first: a task never lists an artifact whose bytes are not there.
      const key = await store.putBytes(params.task_id, artifactId, new Uint8Array(await file.arrayBuffer()));
      const answer = await store.update(
        params.task_id,
        (t: StoredTask): Change<UploadAgentTaskArtifactsResult> => {
          if (t.artifacts.length >= store.limits.maxArtifactsPerTask)
            return {
              result: refused(
                'artifact-limit',
                `a task may hold at most ${store.limits.maxArtifactsPerTask} artifacts`,
              ),
              write: false,
            };
          t.blobs[artifactId] = key;
          t.artifacts.push(artifact);
          t.task.artifacts.push(artifact);
          return { result: { status: 200 as const, body: artifact }, write: true };
        },
      );
      return answer ?? notFound('task', params.task_id);
    },
    async downloadAgentTaskArtifact({ params }) {
      const t = await store.get(params.task_id);
      if (!t) return notFound('task', params.task_id);
      const artifact = t.artifacts.find((a) => a.artifact_id === params.artifact_id);
      const bytes = artifact && (await store.bytes(t, artifact.artifact_id));
      if (!artifact || !bytes) return notFound('artifact', params.artifact_id);
      return {
        status: 200,
        body: bytes,
        // Any name a client uploaded, in any script or with control characters, as RFC 6266 allows it.
        headers: { 'content-disposition': contentDisposition(artifact.file_name) },
      };
    },
  };
}
