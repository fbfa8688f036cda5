// The conformance suite of Agent Protocol v1 (and its awaiting_input extension, whose surface is v1's): the checks,
// each citing the spec, and the scenario that drives an agent through them. The kit (@agentproto/conformance) runs it;
// the generated binding loads it only for a conformance run.
import { isDeepStrictEqual } from 'node:util';
import {
  CheckFailure,
  expectBody,
  expectStatus,
  type Suite,
  type SuiteContext,
} from '@agentproto/runtime/contract';
import { type AgentProtocolTraits, agentProtocolVersion, VERSION_TRAITS } from '../version-traits.js';
import { AWAITING_CHECKS, dialogue } from './awaiting-input.js';

const TASKS = '/ap/v1/agent/tasks';
const SPEC = 'Agent Protocol v1 (AIEF schemas/openapi.yml)';

/**
 * The suite of a version: a task from creation to its last step, with artifacts both ways (v1), and the extension's
 * dialogue where the version has awaiting_input.
 */
export const createSuite = (version: string): Suite => suiteOf(VERSION_TRAITS[agentProtocolVersion(version)]);

const suiteOf = (traits: AgentProtocolTraits): Suite => ({
  protocol: 'agent-protocol',
  checks: [
    ...(traits.awaitingInput ? AWAITING_CHECKS : []),
    {
      id: 'ap.task.create',
      level: 'MUST',
      title: 'POST /ap/v1/agent/tasks creates a task',
      ref: `${SPEC}: createAgentTask, 200 Task`,
      covers: ['task.create'],
    },
    {
      id: 'ap.task.get',
      level: 'MUST',
      title: 'GET a task by id',
      ref: `${SPEC}: getAgentTask, 200 Task`,
      covers: ['task.get'],
    },
    {
      id: 'ap.task.list',
      level: 'MUST',
      title: 'the task list holds the new task',
      ref: `${SPEC}: listAgentTasks, 200 TaskListResponse`,
      covers: ['task.list'],
    },
    {
      id: 'ap.task.paginate',
      level: 'SHOULD',
      title: 'page_size and current_page page the task list',
      ref: `${SPEC}: Pagination, query parameters page_size and current_page`,
      covers: ['list.paginate'],
    },
    {
      id: 'ap.task.read-back',
      level: 'SHOULD',
      title: 'a task read back carries the input and additional_input it was created with',
      ref: `${SPEC}: Task = allOf(TaskRequestBody, …)`,
      covers: ['task.input-kept'],
    },
    {
      id: 'ap.task.pages',
      level: 'SHOULD',
      title: 'paging through the task list visits every task once, with totals that agree',
      ref: `${SPEC}: Pagination (total_items, total_pages, current_page, page_size)`,
      covers: ['list.complete'],
    },
    {
      id: 'ap.task.page-bounds',
      level: 'MUST',
      title: 'a page_size or current_page that is not an integer of at least 1 is refused with 4xx',
      ref: `${SPEC}: parameters page_size and current_page (int32, minimum 1)`,
      covers: ['list.parameters-bounded'],
    },
    {
      id: 'ap.step.execute',
      level: 'MUST',
      title: 'steps run until one says is_last',
      ref: `${SPEC}: executeAgentTaskStep, 200 Step`,
      covers: ['step.execute', 'step.is-last'],
    },
    {
      id: 'ap.step.list',
      level: 'MUST',
      title: 'the step list holds every step run',
      ref: `${SPEC}: listAgentTaskSteps, 200 TaskStepsListResponse`,
      covers: ['step.list'],
    },
    {
      id: 'ap.step.get',
      level: 'MUST',
      title: 'GET a step by id',
      ref: `${SPEC}: getAgentTaskStep, 200 Step`,
      covers: ['step.get'],
    },
    {
      id: 'ap.step.read-back',
      level: 'SHOULD',
      title: 'a step read back carries the input it was run with',
      ref: `${SPEC}: Step = allOf(StepRequestBody, …)`,
      covers: ['step.input-kept'],
    },
    {
      id: 'ap.step.not-found',
      level: 'MUST',
      title: 'an unknown step id answers 404',
      ref: `${SPEC}: getAgentTaskStep, 404 NotFound`,
      covers: ['step.not-found'],
    },
    {
      id: 'ap.artifact.upload',
      level: 'MUST',
      title: 'a file uploads as an artifact',
      ref: `${SPEC}: uploadAgentTaskArtifacts, multipart, 200 Artifact`,
      covers: ['artifact.upload'],
    },
    {
      id: 'ap.artifact.list',
      level: 'MUST',
      title: 'the artifact list holds the upload',
      ref: `${SPEC}: listAgentTaskArtifacts, 200 TaskArtifactsListResponse`,
      covers: ['artifact.list'],
    },
    {
      id: 'ap.artifact.download',
      level: 'MUST',
      title: 'an artifact downloads as the bytes uploaded',
      ref: `${SPEC}: downloadAgentTaskArtifact, 200 application/octet-stream`,
      covers: ['artifact.download'],
    },
    {
      id: 'ap.task.not-found',
      level: 'MUST',
      title: 'an unknown task id answers 404',
      ref: `${SPEC}: 404 NotFound on every /{task_id} path`,
      covers: ['task.not-found'],
    },
    {
      id: 'ap.task.invalid',
      level: 'SHOULD',
      title: 'a task body of the wrong shape is refused with 4xx',
      ref: `${SPEC}: 422 on createAgentTask`,
      covers: ['body.invalid-refused'],
    },
    {
      id: 'ap.wire.schemas',
      level: 'MUST',
      title: 'every answer matches its schema',
      ref: `${SPEC}: components.schemas`,
      covers: ['wire.schemas'],
    },
  ],
  // Creating a task is the first request: an agent that does not answer it as the protocol says speaks no Agent
  // Protocol, and the other checks are blocked.
  probe: { check: 'ap.task.create', request: `POST ${TASKS}` },
  // The scenario follows a task's life: created, read and listed, stepped until `is_last`, given an artifact and
  // asked for it back; then the refusals. A check that needs an earlier one says so (requirePassed), so one broken
  // operation fails its own check and the checks that build on it, not the whole run.
  async run(context) {
    await core(context);
    if (traits.awaitingInput) await dialogue(context, TASKS);
  },
});

/** The v1 scenario, every version's. */
async function core({ session, check, requirePassed }: SuiteContext): Promise<void> {
  // The task every later check works on.
  let taskId = '';
  await check('ap.task.create', async () => {
    const x = await session.call('POST', TASKS, {
      json: { input: 'conformance: write the word ok' },
      expect: { 200: 'Task' },
    });
    const created = expectBody<{ task_id: string; input?: unknown }>(x);
    taskId = created.task_id;
    if (created.input !== 'conformance: write the word ok')
      throw new CheckFailure(
        `${x.label}: the task's input is ${JSON.stringify(created.input)}, not the input sent`,
      );
    return `created task ${taskId}`;
  });
  const task = `${TASKS}/${encodeURIComponent(taskId)}`;
  await check('ap.task.get', async () => {
    requirePassed('ap.task.create');
    const x = await session.call('GET', task, { expect: { 200: 'Task' } });
    if (expectBody<{ task_id?: string }>(x).task_id !== taskId)
      throw new CheckFailure(`${x.label}: /task_id is not "${taskId}"`);
    return undefined;
  });
  await check('ap.task.list', async () => {
    requirePassed('ap.task.create');
    const x = await session.call('GET', `${TASKS}?page_size=100`, { expect: { 200: 'TaskListResponse' } });
    const list = expectBody<{ pagination: { total_items: number } }>(x);
    if (list.pagination.total_items < 1)
      throw new CheckFailure(`${x.label}: /pagination/total_items is 0 after a task was created`);
    return `${list.pagination.total_items} tasks`;
  });
  await check('ap.task.paginate', async () => {
    requirePassed('ap.task.create');
    await session.call('POST', TASKS, {
      json: { input: 'conformance: a second task' },
      expect: { 200: 'Task' },
    });
    const x = await session.call('GET', `${TASKS}?page_size=1&current_page=2`, {
      expect: { 200: 'TaskListResponse' },
    });
    const list = expectBody<{ tasks: unknown[]; pagination: { page_size: number; current_page: number } }>(x);
    if (list.tasks.length > 1)
      throw new CheckFailure(
        `${x.label}: /tasks holds ${list.tasks.length} tasks, expected at most 1 (page_size=1)`,
      );
    if (list.pagination.page_size !== 1 || list.pagination.current_page !== 2)
      throw new CheckFailure(
        `${x.label}: /pagination says page ${list.pagination.current_page} of size ${list.pagination.page_size}, expected page 2 of size 1`,
      );
    return undefined;
  });
  // Create, then read back: what was sent is what is returned, nested values included.
  await check('ap.task.read-back', async () => {
    requirePassed('ap.task.create');
    const sent = {
      input: 'conformance: read me back',
      additional_input: { tone: 'plain', depth: { level: 2 } },
    };
    const created = await session.call('POST', TASKS, { json: sent, expect: { 200: 'Task' } });
    const id = expectBody<{ task_id: string }>(created).task_id;
    const x = await session.call('GET', `${TASKS}/${encodeURIComponent(id)}`, { expect: { 200: 'Task' } });
    const got = expectBody<{ input?: unknown; additional_input?: unknown }>(x);
    for (const key of ['input', 'additional_input'] as const)
      if (!isDeepStrictEqual(got[key], sent[key]))
        throw new CheckFailure(
          `${x.label}: /${key} is ${JSON.stringify(got[key])}, but the task was created with ${JSON.stringify(sent[key])}`,
        );
    return undefined;
  });
  // Every task the kit made is seen exactly once across the pages of one page size, and the totals agree.
  await check('ap.task.pages', async () => {
    requirePassed('ap.task.create');
    const made = [taskId];
    for (let i = 0; i < PAGE_SIZE * 2; i++) {
      const x = await session.call('POST', TASKS, {
        json: { input: `conformance: page filler ${i}` },
        expect: { 200: 'Task' },
      });
      made.push(expectBody<{ task_id: string }>(x).task_id);
    }
    return pageThrough(session, TASKS, 'tasks', 'task_id', made);
  });
  await check('ap.task.page-bounds', async () => {
    for (const query of ['page_size=0', 'current_page=0', 'page_size=ten', 'current_page=-1']) {
      expectStatus(await session.call('GET', `${TASKS}?${query}`), '4xx', 'the minimum is 1');
    }
    return undefined;
  });
  // AIEF v1: a client asks for steps until one says `is_last`; 20 is far more than any sane agent plans.
  const stepIds: string[] = [];
  await check('ap.step.execute', async () => {
    requirePassed('ap.task.create');
    for (let i = 1; i <= 20; i++) {
      const x = await session.call('POST', `${task}/steps`, {
        json: { input: `step ${i}` },
        expect: { 200: 'Step' },
      });
      const step = expectBody<{ step_id: string; task_id: string; is_last: boolean }>(x);
      if (step.task_id !== taskId)
        throw new CheckFailure(`${x.label}: /task_id is "${step.task_id}", not "${taskId}"`);
      stepIds.push(step.step_id);
      if (step.is_last) return `${i} steps until is_last`;
    }
    throw new CheckFailure(`POST ${task}/steps: no step said is_last within 20 steps`);
  });
  await check('ap.step.list', async () => {
    requirePassed('ap.step.execute');
    const x = await session.call('GET', `${task}/steps?page_size=100`, {
      expect: { 200: 'TaskStepsListResponse' },
    });
    const listed = expectBody<{ steps: Array<{ step_id: string }> }>(x).steps.map((s) => s.step_id);
    const missing = stepIds.filter((id) => !listed.includes(id));
    if (missing.length > 0) throw new CheckFailure(`${x.label}: /steps lacks ${missing.join(', ')}`);
    return undefined;
  });
  let firstStep: { label: string; input: unknown } | undefined;
  await check('ap.step.get', async () => {
    requirePassed('ap.step.execute');
    const id = stepIds[0] ?? '';
    const x = await session.call('GET', `${task}/steps/${encodeURIComponent(id)}`, {
      expect: { 200: 'Step' },
    });
    const step = expectBody<{ step_id?: string; input?: unknown }>(x);
    if (step.step_id !== id) throw new CheckFailure(`${x.label}: /step_id is not "${id}"`);
    firstStep = { label: x.label, input: step.input };
    return undefined;
  });
  // The first step, read back by ap.step.get, carries the input it was run with.
  await check('ap.step.read-back', async () => {
    requirePassed('ap.step.get');
    const { label, input } = firstStep ?? { label: '', input: undefined };
    if (input !== 'step 1')
      throw new CheckFailure(
        `${label}: /input is ${JSON.stringify(input)}, but the step was run with "step 1"`,
      );
    return undefined;
  });
  await check('ap.step.not-found', async () => {
    requirePassed('ap.task.create');
    const x = await session.call('GET', `${task}/steps/conformance-no-such-step`, {
      expect: { 404: 'NotFound' },
    });
    expectBody(x, 404, 'NotFound');
    return undefined;
  });
  // AIEF v1: an artifact uploaded as multipart `file` comes back, byte for byte, at its download path.
  const content = 'conformance upload: 1 2 3';
  let artifactId = '';
  await check('ap.artifact.upload', async () => {
    requirePassed('ap.task.create');
    const form = new FormData();
    form.set('file', new File([content], 'conformance.txt', { type: 'text/plain' }));
    form.set('relative_path', 'conformance');
    const x = await session.call('POST', `${task}/artifacts`, { body: form, expect: { 200: 'Artifact' } });
    artifactId = expectBody<{ artifact_id: string }>(x).artifact_id;
    return `artifact ${artifactId}`;
  });
  await check('ap.artifact.list', async () => {
    requirePassed('ap.artifact.upload');
    const x = await session.call('GET', `${task}/artifacts?page_size=100`, {
      expect: { 200: 'TaskArtifactsListResponse' },
    });
    const ids = expectBody<{ artifacts: Array<{ artifact_id: string }> }>(x).artifacts.map(
      (a) => a.artifact_id,
    );
    if (!ids.includes(artifactId))
      throw new CheckFailure(`${x.label}: /artifacts lacks the uploaded ${artifactId}`);
    return undefined;
  });
  await check('ap.artifact.download', async () => {
    requirePassed('ap.artifact.upload');
    const x = await session.call('GET', `${task}/artifacts/${encodeURIComponent(artifactId)}`);
    expectStatus(x, 200);
    if (x.text !== content)
      throw new CheckFailure(
        `${x.label}: the bytes differ from those uploaded (${JSON.stringify(x.text.slice(0, 60))})`,
      );
    return undefined;
  });
  // The refusals: an unknown task is a 404 with a `message` (the NotFound schema); an input of the wrong type is a 4xx.
  await check('ap.task.not-found', async () => {
    const x = await session.call('GET', `${TASKS}/conformance-no-such-task`, {
      expect: { 404: 'NotFound' },
    });
    expectBody(x, 404, 'NotFound');
    return undefined;
  });
  await check('ap.task.invalid', async () => {
    const x = await session.call('POST', TASKS, { json: { input: 42 } });
    expectStatus(x, '4xx', 'sent {"input":42}');
    return `refused with ${x.status}`;
  });
}

/** The page size the kit pages lists with: small, so a handful of tasks spans several pages. */
const PAGE_SIZE = 3;

/**
 * Reads a list page by page (page_size PAGE_SIZE, from page 1 to the last page the first answer names) and fails on
 * what pagination must not do: an item twice, a count that differs from total_items, a total_pages that does not fit
 * total_items, a page that is not full before the last one, numbers that change between pages, or an item the kit
 * made that no page holds.
 */
async function pageThrough(
  session: SuiteContext['session'],
  path: string,
  field: string,
  idKey: string,
  made: readonly string[],
): Promise<string> {
  type Page = {
    pagination: { total_items: number; total_pages: number; current_page: number; page_size: number };
  };
  const seen = new Map<string, number>();
  let first: Page['pagination'] | undefined;
  for (let page = 1; page <= (first?.total_pages ?? 1) && page <= 1000; page++) {
    const x = await session.call('GET', `${path}?page_size=${PAGE_SIZE}&current_page=${page}`, {
      expect: { 200: field === 'tasks' ? 'TaskListResponse' : 'TaskStepsListResponse' },
    });
    const body = expectBody<Page & Record<string, Array<Record<string, unknown>>>>(x);
    const p = body.pagination;
    first ??= p;
    if (p.total_items !== first.total_items || p.total_pages !== first.total_pages)
      throw new CheckFailure(
        `${x.label}: /pagination says ${p.total_items} items in ${p.total_pages} pages; page 1 said ${first.total_items} in ${first.total_pages}`,
      );
    const items = body[field] ?? [];
    if (page < first.total_pages && items.length !== PAGE_SIZE)
      throw new CheckFailure(
        `${x.label}: page ${page} of ${first.total_pages} holds ${items.length} items, expected ${PAGE_SIZE}`,
      );
    for (const item of items) {
      const id = String(item[idKey]);
      const before = seen.get(id);
      if (before !== undefined)
        throw new CheckFailure(`${x.label}: ${idKey} ${id} is on page ${before} and again on page ${page}`);
      seen.set(id, page);
    }
  }
  if (!first) throw new CheckFailure(`GET ${path}: no page was read`);
  if (first.total_pages !== Math.ceil(first.total_items / PAGE_SIZE))
    throw new CheckFailure(
      `GET ${path}: /pagination/total_pages is ${first.total_pages}, but ${first.total_items} items in pages of ${PAGE_SIZE} make ${Math.ceil(first.total_items / PAGE_SIZE)}`,
    );
  const missing = made.filter((id) => !seen.has(id));
  if (missing.length > 0)
    throw new CheckFailure(`GET ${path}: no page holds ${missing.join(', ')}, made by the kit`);
  if (seen.size !== first.total_items)
    throw new CheckFailure(
      `GET ${path}: the ${first.total_pages} pages hold ${seen.size} distinct ${field}, but /pagination/total_items is ${first.total_items}`,
    );
  return `${seen.size} ${field} over ${first.total_pages} pages of ${PAGE_SIZE}`;
}
