// The agent's handlers, one per operation of Agent Protocol v1. Each already returns a
// valid answer; replace the TODOs with your agent's logic. The compiler checks every answer against the protocol.
// Tasks live in the AgentStore the app is made with: src/server.ts opens the one AGENT_STORE names
// (memory unless the project was made with `--store`).
import { paginate, type StoredTask, TaskStore } from '@agentproto/agent-protocol/reference-agent';
import { type AgentProtocolHandlers, createAgentProtocolApp, type Step } from '@agentproto/agent-protocol/v1';
import { type AgentStore, MemoryStore } from '@agentproto/runtime';

const notFound = (what: string, id: string) => ({
  status: 404 as const,
  body: { message: `no ${what} with id "${id}"` },
});

/**
 * What handler `K` answers. Each handler names it, so the compiler reports a wrong answer on the line that returns
 * it, not on the handler's first line.
 */
type Answer<K extends keyof AgentProtocolHandlers> = Promise<Awaited<ReturnType<AgentProtocolHandlers[K]>>>;

/** The handlers, keeping tasks in `store`. */
export function createHandlers(store: AgentStore): AgentProtocolHandlers {
  const tasks = new TaskStore(store);
  return {
    async createAgentTask({ body }): Answer<'createAgentTask'> {
      // TODO: set your agent up for the task (body.input is what the user asked for).
      const task = {
        task_id: await tasks.newId('task'),
        input: body?.input ?? null,
        // The task keeps what it was created with: a client reads it back as it sent it.
        ...(body?.additional_input === undefined ? {} : { additional_input: body.additional_input }),
        artifacts: [],
      };
      await tasks.add(task);
      return { status: 200, body: task };
    },
    async listAgentTasks({ query }): Answer<'listAgentTasks'> {
      const page = await tasks.page(query.current_page, query.page_size);
      return { status: 200, body: { tasks: page.items, pagination: page.pagination } };
    },
    async getAgentTask({ params }): Answer<'getAgentTask'> {
      const stored = await tasks.get(params.task_id);
      return stored ? { status: 200, body: stored.task } : notFound('task', params.task_id);
    },
    async executeAgentTaskStep({ params, body }): Answer<'executeAgentTaskStep'> {
      const stepId = await tasks.newId('step');
      // TODO: do one step of the task. This one answers at once and finishes the task. `update` writes the task
      // back only if no other request changed it meanwhile (else it runs the change again on the newer task).
      const step = await tasks.update(params.task_id, (stored: StoredTask) => {
        const step: Step = {
          task_id: params.task_id,
          step_id: stepId,
          name: 'answer',
          status: 'completed',
          input: body?.input ?? null,
          output: `done: ${stored.task.input ?? ''}`,
          artifacts: [],
          is_last: true,
        };
        stored.steps.push(step);
        return { result: step, write: true };
      });
      return step ? { status: 200, body: step } : notFound('task', params.task_id);
    },
    async listAgentTaskSteps({ params, query }): Answer<'listAgentTaskSteps'> {
      const stored = await tasks.get(params.task_id);
      if (!stored) return notFound('task', params.task_id);
      const page = paginate(stored.steps, query.current_page, query.page_size);
      return { status: 200, body: { steps: page.items, pagination: page.pagination } };
    },
    async getAgentTaskStep({ params }): Answer<'getAgentTaskStep'> {
      const step = (await tasks.get(params.task_id))?.steps.find((s) => s.step_id === params.step_id);
      return step ? { status: 200, body: step } : notFound('step', params.step_id);
    },
    async uploadAgentTaskArtifacts({ params, body }): Answer<'uploadAgentTaskArtifacts'> {
      if (!(await tasks.get(params.task_id))) return notFound('task', params.task_id);
      // TODO: decide what your agent does with uploaded files.
      const artifact = {
        artifact_id: await tasks.newId('artifact'),
        agent_created: false,
        file_name: body.file instanceof File && body.file.name !== '' ? body.file.name : 'upload.bin',
        relative_path: body.relative_path ?? null,
      };
      const bytes = new Uint8Array(await body.file.arrayBuffer());
      const key = await tasks.putBytes(params.task_id, artifact.artifact_id, bytes);
      const added = await tasks.update(params.task_id, (stored: StoredTask) => {
        stored.blobs[artifact.artifact_id] = key;
        stored.artifacts.push(artifact);
        stored.task.artifacts.push(artifact);
        return { result: artifact, write: true };
      });
      return added ? { status: 200, body: added } : notFound('task', params.task_id);
    },
    async listAgentTaskArtifacts({ params, query }): Answer<'listAgentTaskArtifacts'> {
      const stored = await tasks.get(params.task_id);
      if (!stored) return notFound('task', params.task_id);
      const page = paginate(stored.artifacts, query.current_page, query.page_size);
      return { status: 200, body: { artifacts: page.items, pagination: page.pagination } };
    },
    async downloadAgentTaskArtifact({ params }): Answer<'downloadAgentTaskArtifact'> {
      const stored = await tasks.get(params.task_id);
      const bytes = stored && (await tasks.bytes(stored, params.artifact_id));
      return bytes ? { status: 200, body: bytes } : notFound('artifact', params.artifact_id);
    },
  };
}

/** The agent as a Hono app, its tasks in `store`. */
export function createApp(store: AgentStore) {
  return createAgentProtocolApp(createHandlers(store));
}

/** The agent with its tasks in memory: what the tests use. */
export const app = createApp(new MemoryStore());
