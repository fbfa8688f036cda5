// The agent's handlers, one per operation of Agent Protocol v1. Each already returns a
// valid answer; replace the TODOs with your agent's logic. The compiler checks every answer against the protocol.
import { MemoryStore, paginate } from '@agentproto/agent-protocol/reference-agent';
import { type AgentProtocolHandlers, createAgentProtocolApp, type Step } from '@agentproto/agent-protocol/v1';

const store = new MemoryStore();

const notFound = (what: string, id: string) => ({
  status: 404 as const,
  body: { message: `no ${what} with id "${id}"` },
});

export const handlers: AgentProtocolHandlers = {
  createAgentTask({ body }) {
    // TODO: set your agent up for the task (body.input is what the user asked for).
    const task = { task_id: store.newId('task'), input: body?.input ?? null, artifacts: [] };
    store.add(task);
    return { status: 200, body: task };
  },
  listAgentTasks({ query }) {
    const page = paginate(store.list(), query.current_page, query.page_size);
    return { status: 200, body: { tasks: page.items, pagination: page.pagination } };
  },
  getAgentTask({ params }) {
    const stored = store.get(params.task_id);
    return stored ? { status: 200, body: stored.task } : notFound('task', params.task_id);
  },
  executeAgentTaskStep({ params, body }) {
    const stored = store.get(params.task_id);
    if (!stored) return notFound('task', params.task_id);
    // TODO: do one step of the task. This one answers at once and finishes the task.
    const step: Step = {
      task_id: params.task_id,
      step_id: store.newId('step'),
      name: 'answer',
      status: 'completed',
      input: body?.input ?? null,
      output: `done: ${stored.task.input ?? ''}`,
      artifacts: [],
      is_last: true,
    };
    stored.steps.push(step as never);
    return { status: 200, body: step };
  },
  listAgentTaskSteps({ params, query }) {
    const stored = store.get(params.task_id);
    if (!stored) return notFound('task', params.task_id);
    const page = paginate(stored.steps, query.current_page, query.page_size);
    return { status: 200, body: { steps: page.items, pagination: page.pagination } };
  },
  getAgentTaskStep({ params }) {
    const step = store.get(params.task_id)?.steps.find((s) => s.step_id === params.step_id);
    return step ? { status: 200, body: step } : notFound('step', params.step_id);
  },
  async uploadAgentTaskArtifacts({ params, body }) {
    const stored = store.get(params.task_id);
    if (!stored) return notFound('task', params.task_id);
    // TODO: decide what your agent does with uploaded files.
    const artifact = {
      artifact_id: store.newId('artifact'),
      agent_created: false,
      file_name: body.file instanceof File && body.file.name !== '' ? body.file.name : 'upload.bin',
      relative_path: body.relative_path ?? null,
    };
    stored.artifacts.push({ artifact, bytes: new Uint8Array(await body.file.arrayBuffer()) });
    stored.task.artifacts.push(artifact);
    return { status: 200, body: artifact };
  },
  listAgentTaskArtifacts({ params, query }) {
    const stored = store.get(params.task_id);
    if (!stored) return notFound('task', params.task_id);
    const page = paginate(
      stored.artifacts.map((a) => a.artifact),
      query.current_page,
      query.page_size,
    );
    return { status: 200, body: { artifacts: page.items, pagination: page.pagination } };
  },
  downloadAgentTaskArtifact({ params }) {
    const found = store
      .get(params.task_id)
      ?.artifacts.find((a) => a.artifact.artifact_id === params.artifact_id);
    return found ? { status: 200, body: found.bytes } : notFound('artifact', params.artifact_id);
  },
};

/** The agent as a Hono app. */
export const app = createAgentProtocolApp(handlers);
