// Listing tasks (specification §3.1.4, §6.5): ListTasks answers a page, leaves artifacts out unless asked, and its
// pages, followed by nextPageToken, hold every task once, the most recently updated first.
import { CheckFailure } from '@agentproto/runtime/contract';
import { type Binding, type BindingChecks, type BindingSpec, SPEC } from './bindings.js';
import { message, type SentTask, taskOf } from './messaging.js';

/** The listing checks of one binding. */
export const listingDefinitions = ({ prefix, name, section }: BindingSpec) => [
  {
    id: `a2a.${prefix}.list`,
    level: 'MUST' as const,
    title: `${name}: ListTasks answers a page of tasks`,
    ref: `${SPEC} §3.1.4, ${section}`,
    covers: ['list.page'],
  },
  {
    id: `a2a.${prefix}.list-artifacts`,
    level: 'MUST' as const,
    title: `${name}: ListTasks leaves artifacts out unless includeArtifacts is true`,
    ref: `${SPEC} §3.1.4`,
    covers: ['list.artifacts-omitted'],
  },
  {
    id: `a2a.${prefix}.list-pages`,
    level: 'MUST' as const,
    title: `${name}: ListTasks pages by nextPageToken through every task once, the most recently updated first`,
    ref: `${SPEC} §3.1.4, §6.5`,
    covers: ['list.pagination', 'list.order'],
  },
];

/** What one ListTasks page holds, as the kit reads it. */
interface TaskPage {
  tasks: Array<{ id: string; artifacts?: unknown; status?: { timestamp?: string } }>;
  nextPageToken: string;
  totalSize: number;
}

/** The page size the kit pages ListTasks with: small, so a few tasks span several pages. */
const PAGE_SIZE = 2;

/** Lists a page, then one without artifacts, then makes a few more tasks and pages through them all. */
export async function listingChecks(
  { check, after }: BindingChecks,
  sent: SentTask | undefined,
): Promise<void> {
  await check('list', async (b) => {
    b.result(await b.call('ListTasks', { pageSize: 5 }));
    return undefined;
  });
  await check('list-artifacts', async (b) => {
    const x = await b.call('ListTasks', { pageSize: 20 });
    const { tasks } = b.result<TaskPage>(x);
    const carrying = tasks.find((t) => t.artifacts !== undefined);
    if (carrying)
      throw new CheckFailure(
        `${x.label}: task ${carrying.id} carries an artifacts field without includeArtifacts`,
      );
    return `${tasks.length} tasks`;
  });
  await check('list-pages', async (b) => {
    const task = after(
      'send',
      sent,
      'the agent says it answers with a message, so there are no tasks to list',
    );
    const made = [task.id];
    for (let i = 0; i < PAGE_SIZE * 2; i++) {
      const filler = taskOf(
        b.result(await b.call('SendMessage', message(`Conformance page filler ${i}: say ok.`))),
      );
      if (filler) made.push(filler.id);
    }
    return pageThrough(b, made);
  });
}

/**
 * Follows nextPageToken from the first page to the last (at most 500 pages) and fails on what cursor pagination must
 * not do: a page larger than asked, a task twice, a totalSize that changes or differs from the tasks seen, a task the
 * kit made that no page holds, or tasks out of order (most recently updated first).
 */
async function pageThrough(b: Binding, made: readonly string[]): Promise<string> {
  const seen = new Set<string>();
  const stamps: Array<{ id: string; at: number }> = [];
  let token = '';
  let total: number | undefined;
  for (let n = 1; n <= 500; n++) {
    const x = await b.call('ListTasks', { pageSize: PAGE_SIZE, ...(token ? { pageToken: token } : {}) });
    const p = b.result<TaskPage>(x);
    total ??= p.totalSize;
    if (p.totalSize !== total)
      throw new CheckFailure(`${x.label}: page ${n} says totalSize ${p.totalSize}, page 1 said ${total}`);
    if (p.tasks.length > PAGE_SIZE)
      throw new CheckFailure(
        `${x.label}: page ${n} holds ${p.tasks.length} tasks, asked for at most ${PAGE_SIZE}`,
      );
    for (const t of p.tasks) {
      if (seen.has(t.id))
        throw new CheckFailure(`${x.label}: task ${t.id} is listed twice (again on page ${n})`);
      seen.add(t.id);
      const at = Date.parse(t.status?.timestamp ?? '');
      if (!Number.isNaN(at)) stamps.push({ id: t.id, at });
    }
    if (p.nextPageToken === '') {
      const missing = made.filter((id) => !seen.has(id));
      if (missing.length > 0)
        throw new CheckFailure(`${x.label}: no page holds ${missing.join(', ')}, made by the kit`);
      if (seen.size !== total)
        throw new CheckFailure(`${x.label}: the pages hold ${seen.size} tasks, but totalSize is ${total}`);
      const late = stamps.findIndex((s, i) => i > 0 && s.at > (stamps[i - 1]?.at ?? s.at));
      if (late > 0)
        throw new CheckFailure(
          `${x.label}: task ${stamps[late]?.id} was updated after ${stamps[late - 1]?.id}, yet is listed after it (most recent first)`,
        );
      return `${seen.size} tasks over ${n} pages of ${PAGE_SIZE}`;
    }
    if (p.tasks.length === 0)
      throw new CheckFailure(
        `${x.label}: page ${n} is empty but names a next page (${JSON.stringify(p.nextPageToken)})`,
      );
    token = p.nextPageToken;
  }
  throw new CheckFailure(`ListTasks over ${b.spec.name}: still a next page after 500 pages`);
}
