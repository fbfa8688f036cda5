// ListTasks and the store index it reads: the keys a task is listed by (each task's entry in TASK_INDEX, written by
// task-records.ts when an event changes them), the range a filtered page reads, the page token, and the one-time
// indexing of tasks stored before that index existed. Kept apart because the key layout is one contract between the
// writers and the listing, and nothing else reads it.
import type { AgentStore, IndexKeys } from '@agentproto/runtime';
import { InvalidParamsError } from '../errors/a2a-error.js';
import type { ListTasksRequest, ListTasksResponse, Task, TaskState } from '../generated/1.0/index.js';
import { type StoredTask, TASK_INDEX, TASKS, type TaskIndexEntry } from './stored-task.js';
import { view } from './task-view.js';

/** ListTasks' page size when the request names none (the proto's comment). */
const DEFAULT_PAGE_SIZE = 50;

/**
 * ListTasks: newest status first, filtered, a page at a time (the page token is the last task's position). Read
 * through the store's index of the filter asked for, so a page reads the tasks on it and no others; each is `load`ed
 * as its log stands (as GetTask shows it), undefined for a task no longer there.
 */
export async function listTasks(
  store: AgentStore,
  request: ListTasksRequest,
  load: (taskId: string) => Promise<Task | undefined>,
): Promise<ListTasksResponse> {
  const state = request.status && request.status !== 'TASK_STATE_UNSPECIFIED' ? request.status : undefined;
  const { index, prefix } = indexFor(request.contextId || undefined, state, request.tenant || undefined);
  const from =
    prefix + (request.statusTimestampAfter ? new Date(request.statusTimestampAfter).toISOString() : '');
  const cursor = request.pageToken ? readCursor(request.pageToken) : undefined;
  const before = cursor ? `${prefix}${cursor.status.timestamp ?? ''}|${keyPart(cursor.id)}` : `${prefix}}`;
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const [ids, totalSize] = await Promise.all([
    store.listByIndex(TASK_INDEX, index, { from, before, limit: pageSize + 1 }),
    store.countByIndex(TASK_INDEX, index, { from, before: `${prefix}}` }),
  ]);
  const page = (await Promise.all(ids.slice(0, pageSize).map(load))).flatMap((task) => (task ? [task] : []));
  const last = page.at(-1);
  return {
    tasks: page.map((t) => view(t, request.historyLength, request.includeArtifacts === true)),
    nextPageToken: ids.length > pageSize && last ? cursorOf(last) : '',
    pageSize,
    totalSize,
  };
}

/**
 * Lists tasks stored before ListTasks read TASK_INDEX (once: afterwards every write keeps it), each by its keys as its
 * log stands (`load`).
 */
export async function indexAll(
  store: AgentStore,
  load: (taskId: string) => Promise<StoredTask>,
): Promise<void> {
  if ((await store.count(TASK_INDEX)) >= (await store.count(TASKS))) return;
  const pageSize = 100;
  for (let offset = 0; ; offset += pageSize) {
    const page = await store.list<StoredTask>(TASKS, { offset, limit: pageSize });
    for (const { task } of page) {
      // A task written meanwhile was listed by that write; expecting no entry leaves its entry alone.
      if (await store.get(TASK_INDEX, task.id)) continue;
      const stored = await load(task.id);
      const entry: TaskIndexEntry = { lastEventId: stored.lastEventId };
      await store.put(TASK_INDEX, task.id, entry, 0, keysOf(stored.task, stored.tenant));
    }
    if (page.length < pageSize) return;
  }
}

/**
 * The keys ListTasks reads a task by, one index per combination of its filters; each key ends with the status
 * timestamp and the id, so an index lists the most recent status first (ties by id, greatest first). A task of a
 * named tenant is in indexes of their own (`tenant-recent`, …), each key beginning with the tenant: the default
 * tenant's indexes hold its tasks alone, as before tenants (DECISIONS 115).
 */
export function keysOf(task: Task, tenant?: string): IndexKeys {
  const tail = `${task.status.timestamp ?? ''}|${keyPart(task.id)}`;
  const context = keyPart(task.contextId ?? '');
  const keys = {
    recent: tail,
    context: `${context}|${tail}`,
    state: `${task.status.state}|${tail}`,
    'context-state': `${context}|${task.status.state}|${tail}`,
  };
  if (!tenant) return keys;
  const owner = keyPart(tenant);
  return Object.fromEntries(
    Object.entries(keys).map(([index, key]) => [`${TENANT_INDEX}${index}`, `${owner}|${key}`]),
  );
}

/** What a named tenant's index names begin with. */
const TENANT_INDEX = 'tenant-';

/** An id or context id as an index key part: escaped, so it holds no `|` and sorts alike in every store. */
function keyPart(value: string): string {
  return encodeURIComponent(value);
}

/** The index and key prefix that serve a ListTasks filter ('}' follows '|', so `${prefix}}` ends the range). */
function indexFor(
  contextId: string | undefined,
  state: TaskState | undefined,
  tenant: string | undefined,
): { index: string; prefix: string } {
  const own = ownIndexFor(contextId, state);
  return tenant ? { index: `${TENANT_INDEX}${own.index}`, prefix: `${keyPart(tenant)}|${own.prefix}` } : own;
}

/** The index and key prefix of a filter among the tasks of one tenant. */
function ownIndexFor(
  contextId: string | undefined,
  state: TaskState | undefined,
): { index: string; prefix: string } {
  if (contextId && state) return { index: 'context-state', prefix: `${keyPart(contextId)}|${state}|` };
  if (contextId) return { index: 'context', prefix: `${keyPart(contextId)}|` };
  if (state) return { index: 'state', prefix: `${state}|` };
  return { index: 'recent', prefix: '' };
}

function cursorOf(task: Task): string {
  return Buffer.from(JSON.stringify([task.status.timestamp ?? '', task.id])).toString('base64url');
}

function readCursor(token: string): Pick<Task, 'id' | 'status'> {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    const [timestamp, id]: unknown[] = Array.isArray(parsed) ? parsed : [];
    if (typeof timestamp === 'string' && typeof id === 'string')
      return { id, status: { state: 'TASK_STATE_SUBMITTED', timestamp } };
  } catch {
    // fall through
  }
  throw new InvalidParamsError('pageToken', 'not a page token this agent gave');
}
