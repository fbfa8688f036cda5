// The A2A 1.0 conformance suite. The kit (@agentproto/conformance) runs it against a live agent: the card first, then
// each binding the card declares (HTTP+JSON, JSON-RPC), through send, get, list, stream and A2A's errors. The generated
// binding loads it only for a conformance run.
import {
  CheckFailure,
  CheckSkipped,
  describeErrors,
  type Exchange,
  excerpt,
  type Suite,
  type SuiteContext,
  type Validator,
} from '@agentproto/runtime/documents';
import * as validators from '../generated/1.0/validators.js';

const SPEC = 'A2A 1.0.1 specification';
const V = { 'A2A-Version': '1.0' };

/** A binding the card declares, and the path of its URL (tried against the agent the kit was pointed at). */
interface Declared {
  binding: 'JSONRPC' | 'HTTP+JSON';
  path: string;
}

/** The A2A 1.0 suite. */
export function createSuite(version: string): Suite {
  const checks = [
    {
      id: 'a2a.card',
      level: 'MUST',
      title: 'the agent card is served at /.well-known/agent-card.json',
      ref: `${SPEC} §8.2`,
      covers: ['card.served'],
    },
    {
      id: 'a2a.card.interfaces',
      level: 'MUST',
      title: 'the card declares a JSONRPC or HTTP+JSON interface for 1.0',
      ref: `${SPEC} §8.3.1, §5.2`,
      covers: ['card.interfaces'],
    },
    ...bindingChecks('rest', 'HTTP+JSON', '§11'),
    ...bindingChecks('rpc', 'JSON-RPC', '§9'),
    {
      id: 'a2a.rpc.method-not-found',
      level: 'MUST',
      title: 'an unknown method is -32601',
      ref: `${SPEC} §9.5; JSON-RPC 2.0 §5.1`,
      covers: ['rpc.method-not-found'],
    },
    {
      id: 'a2a.rpc.parse-error',
      level: 'MUST',
      title: 'a body that is not JSON is -32700',
      ref: `${SPEC} §9.5; JSON-RPC 2.0 §5.1`,
      covers: ['rpc.parse-error'],
    },
    {
      id: 'a2a.rpc.invalid-params',
      level: 'SHOULD',
      title: 'params that break their schema are -32602',
      ref: `${SPEC} §9.5, §5.7`,
      covers: ['rpc.invalid-params'],
    },
    {
      id: 'a2a.wire.schemas',
      level: 'MUST',
      title: 'every answer and event matches its schema',
      ref: `schemas/a2a/${version}`,
      covers: ['wire.schemas'],
    },
  ] as const;
  return {
    protocol: 'a2a',
    checks,
    // The schema-driven checks speak 1.0 too: without the header an agent may take them for 0.3 clients.
    requestHeaders: V,
    async run(context) {
      const { session, check, requirePassed } = context;
      const declared: Declared[] = [];
      await check('a2a.card', async () => {
        const x = await session.call('GET', '/.well-known/agent-card.json', { expect: { 200: 'AgentCard' } });
        if (x.status !== 200) throw new CheckFailure(`${x.label}: answered ${x.status}, expected 200`);
        if (x.problems.length > 0) throw new CheckFailure(x.problems.slice(0, 3).join('; '));
        const interfaces =
          (
            x.body as {
              supportedInterfaces?: Array<{ url: string; protocolBinding: string; protocolVersion: string }>;
            }
          ).supportedInterfaces ?? [];
        for (const i of interfaces) {
          if (
            i.protocolVersion !== '1.0' ||
            (i.protocolBinding !== 'JSONRPC' && i.protocolBinding !== 'HTTP+JSON')
          )
            continue;
          if (declared.some((d) => d.binding === i.protocolBinding)) continue;
          declared.push({ binding: i.protocolBinding, path: pathOf(i.url) });
        }
        return declared.map((d) => `${d.binding} at ${d.path}`).join(', ') || 'no 1.0 interface';
      });
      await check('a2a.card.interfaces', async () => {
        requirePassed('a2a.card');
        if (declared.length === 0)
          throw new CheckFailure(
            'the card declares no JSONRPC or HTTP+JSON interface with protocolVersion "1.0"',
          );
        return undefined;
      });
      const rest = declared.find((d) => d.binding === 'HTTP+JSON');
      const rpc = declared.find((d) => d.binding === 'JSONRPC');
      // The schema-driven checks send to both bindings, where the card says they are.
      context.surfaceAt(rest ? rest.path : null);
      context.surfaceAt(rpc ? rpc.path || '/' : null, 'json-rpc');
      await restChecks(context, rest);
      await rpcChecks(context, rpc);
    },
  };
}

function bindingChecks(prefix: 'rest' | 'rpc', name: string, section: string) {
  const id = (s: string) => `a2a.${prefix}.${s}`;
  return [
    {
      id: id('send'),
      level: 'MUST',
      title: `${name}: SendMessage answers with a task or a message`,
      ref: `${SPEC} §3.1.1, ${section}`,
      covers: ['send.answer'],
    },
    {
      id: id('get'),
      level: 'MUST',
      title: `${name}: GetTask reads the task SendMessage made`,
      ref: `${SPEC} §3.1.3, ${section}`,
      covers: ['get.task'],
    },
    {
      id: id('not-found'),
      level: 'MUST',
      title: `${name}: an unknown task is TaskNotFoundError`,
      ref: `${SPEC} §3.3.2, §5.4, ${section}`,
      covers: ['task.not-found'],
    },
    {
      id: id('stream'),
      level: 'MUST',
      title: `${name}: SendStreamingMessage streams a task or a message by the stream rules`,
      ref: `${SPEC} §3.1.2, ${section}`,
      covers: ['stream.patterns'],
    },
    {
      id: id('list'),
      level: 'MUST',
      title: `${name}: ListTasks answers a page of tasks`,
      ref: `${SPEC} §3.1.4, ${section}`,
      covers: ['list.page'],
    },
    {
      id: id('cancel-terminal'),
      level: 'MUST',
      title: `${name}: canceling a finished task is TaskNotCancelableError`,
      ref: `${SPEC} §3.1.5, §5.4`,
      covers: ['cancel.terminal'],
    },
    {
      id: id('version'),
      level: 'MUST',
      title: `${name}: an unsupported A2A-Version is VersionNotSupportedError`,
      ref: `${SPEC} §3.6.2, §5.4`,
      covers: ['version.unsupported'],
    },
    {
      id: id('subscribe-terminal'),
      level: 'MUST',
      title: `${name}: subscribing to a finished task is UnsupportedOperationError`,
      ref: `${SPEC} §3.1.6, §9.4.6`,
      covers: ['subscribe.terminal'],
    },
    {
      id: id('history-zero'),
      level: 'SHOULD',
      title: `${name}: GetTask with historyLength 0 leaves history out`,
      ref: `${SPEC} §3.2.4`,
      covers: ['history.length'],
    },
    {
      id: id('list-artifacts'),
      level: 'MUST',
      title: `${name}: ListTasks leaves artifacts out unless includeArtifacts is true`,
      ref: `${SPEC} §3.1.4`,
      covers: ['list.artifacts-omitted'],
    },
    {
      id: id('list-pages'),
      level: 'MUST',
      title: `${name}: ListTasks pages by nextPageToken through every task once, the most recently updated first`,
      ref: `${SPEC} §3.1.4, §6.5`,
      covers: ['list.pagination', 'list.order'],
    },
  ] as const;
}

/** The path of an interface URL, tried against the agent the kit was pointed at (its host may be a public name). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/$/, '') || '';
  } catch {
    return '';
  }
}

const message = (text: string) => ({
  message: {
    messageId: `conformance-${Math.random().toString(36).slice(2)}`,
    role: 'ROLE_USER',
    parts: [{ text }],
  },
});
/** The task an answer names: SendMessageResponse.task, or undefined for a direct message. */
const taskOf = (body: unknown) =>
  (body as { task?: { id: string; status: { state: string } } } | undefined)?.task;
const TERMINAL = ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'];

/** The ErrorInfo reason of an HTTP+JSON error answer, or what is wrong with the answer. */
function restReason(x: Exchange, status: number, reason: string): string | undefined {
  const details =
    (x.body as { error?: { details?: Array<{ '@type'?: string; reason?: string }> } } | undefined)?.error
      ?.details ?? [];
  const info = details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
  if (x.status !== status)
    return `${x.label}: answered ${x.status}, expected ${status} with ${reason}: ${excerpt(x.text)}`;
  if (info?.reason !== reason)
    return `${x.label}: the error's ErrorInfo reason is ${JSON.stringify(info?.reason)}, expected "${reason}"`;
  return undefined;
}

async function restChecks(
  { session, check, requirePassed }: SuiteContext,
  declared: Declared | undefined,
): Promise<void> {
  const skip = () => {
    if (!declared) throw new CheckSkipped('the card claims no HTTP+JSON interface');
    return declared.path;
  };
  const error = { '*': 'ErrorResponse' };
  let task: { id: string; status: { state: string } } | undefined;
  await check('a2a.rest.send', async () => {
    const base = skip();
    const x = await session.call('POST', `${base}/message:send`, {
      json: message('Hello from the conformance kit. Plan a trip to Lisbon.'),
      headers: V,
      expect: { 200: 'SendMessageResponse', ...error },
    });
    if (x.status !== 200)
      throw new CheckFailure(`${x.label}: answered ${x.status}, expected 200: ${excerpt(x.text)}`);
    if (x.problems.length > 0) throw new CheckFailure(x.problems.slice(0, 3).join('; '));
    task = taskOf(x.body);
    return task ? `task ${task.id}, ${task.status.state}` : 'a direct message';
  });
  await check('a2a.rest.get', async () => {
    requirePassed('a2a.rest.send');
    if (!task)
      throw new CheckSkipped('the agent says it answers with a message, so there is no task to read');
    const x = await session.call('GET', `${skip()}/tasks/${encodeURIComponent(task.id)}`, {
      headers: V,
      expect: { 200: 'Task', ...error },
    });
    if (x.status !== 200) throw new CheckFailure(`${x.label}: answered ${x.status}, expected 200`);
    if (x.problems.length > 0) throw new CheckFailure(x.problems.slice(0, 3).join('; '));
    const id = (x.body as { id?: string }).id;
    if (id !== task.id)
      throw new CheckFailure(`${x.label}: the task's id is ${JSON.stringify(id)}, expected "${task.id}"`);
    return undefined;
  });
  await check('a2a.rest.not-found', async () => {
    const x = await session.call('GET', `${skip()}/tasks/conformance-no-such-task`, {
      headers: V,
      expect: error,
    });
    const wrong = restReason(x, 404, 'TASK_NOT_FOUND');
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
  await check('a2a.rest.stream', async () => {
    const x = await session.stream('POST', `${skip()}/message:stream`, 'sse', {
      json: message('Plan a trip to Rome.'),
      headers: V,
    });
    streamed(x);
    return `${x.items.length} events`;
  });
  await check('a2a.rest.list', async () => {
    const x = await session.call('GET', `${skip()}/tasks?pageSize=5`, {
      headers: V,
      expect: { 200: 'ListTasksResponse', ...error },
    });
    if (x.status !== 200)
      throw new CheckFailure(`${x.label}: answered ${x.status}, expected 200: ${excerpt(x.text)}`);
    if (x.problems.length > 0) throw new CheckFailure(x.problems.slice(0, 3).join('; '));
    return undefined;
  });
  await check('a2a.rest.cancel-terminal', async () => {
    requirePassed('a2a.rest.send');
    if (!task || !TERMINAL.includes(task.status.state))
      throw new CheckSkipped('the agent claims no finished task to cancel');
    const x = await session.call('POST', `${skip()}/tasks/${encodeURIComponent(task.id)}:cancel`, {
      json: {},
      headers: V,
      expect: error,
    });
    const wrong = restReason(x, 400, 'TASK_NOT_CANCELABLE');
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
  await check('a2a.rest.version', async () => {
    const x = await session.call('GET', `${skip()}/tasks/conformance-no-such-task`, {
      headers: { 'A2A-Version': '99.0' },
      expect: error,
    });
    const wrong = restReason(x, 400, 'VERSION_NOT_SUPPORTED');
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
  await check('a2a.rest.subscribe-terminal', async () => {
    requirePassed('a2a.rest.send');
    if (!task || !TERMINAL.includes(task.status.state))
      throw new CheckSkipped('the agent claims no finished task');
    const x = await session.call('POST', `${skip()}/tasks/${encodeURIComponent(task.id)}:subscribe`, {
      headers: V,
      expect: error,
    });
    const wrong = restReason(x, 400, 'UNSUPPORTED_OPERATION');
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
  await check('a2a.rest.history-zero', async () => {
    requirePassed('a2a.rest.send');
    if (!task)
      throw new CheckSkipped('the agent says it answers with a message, so there is no task to read');
    const x = await session.call('GET', `${skip()}/tasks/${encodeURIComponent(task.id)}?historyLength=0`, {
      headers: V,
      expect: { 200: 'Task', ...error },
    });
    const history = (x.body as { history?: unknown[] } | undefined)?.history;
    if (x.status !== 200) throw new CheckFailure(`${x.label}: answered ${x.status}, expected 200`);
    if (history !== undefined && history.length > 0)
      throw new CheckFailure(
        `${x.label}: the task carries ${history.length} history messages, expected none`,
      );
    return undefined;
  });
  await check('a2a.rest.list-artifacts', async () => {
    const x = await session.call('GET', `${skip()}/tasks?pageSize=20`, {
      headers: V,
      expect: { 200: 'ListTasksResponse', ...error },
    });
    const tasks = (x.body as { tasks?: Array<{ id: string; artifacts?: unknown }> } | undefined)?.tasks ?? [];
    const with_ = tasks.filter((t) => t.artifacts !== undefined);
    if (with_.length > 0)
      throw new CheckFailure(
        `${x.label}: task ${with_[0]?.id} carries an artifacts field without includeArtifacts`,
      );
    return `${tasks.length} tasks`;
  });
  await check('a2a.rest.list-pages', async () => {
    requirePassed('a2a.rest.send');
    if (!task)
      throw new CheckSkipped('the agent says it answers with a message, so there are no tasks to list');
    const base = skip();
    const made = [task.id];
    for (let i = 0; i < PAGE_SIZE * 2; i++) {
      const x = await session.call('POST', `${base}/message:send`, {
        json: message(`Conformance page filler ${i}: say ok.`),
        headers: V,
        expect: { 200: 'SendMessageResponse', ...error },
      });
      const t = taskOf(x.body);
      if (t) made.push(t.id);
    }
    return pageThrough(
      `GET ${base}/tasks`,
      async (token) => {
        const query = `pageSize=${PAGE_SIZE}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
        const x = await session.call('GET', `${base}/tasks?${query}`, {
          headers: V,
          expect: { 200: 'ListTasksResponse', ...error },
        });
        if (x.status !== 200) throw new CheckFailure(`${x.label}: answered ${x.status}, expected 200`);
        if (x.problems.length > 0) throw new CheckFailure(x.problems.slice(0, 3).join('; '));
        return x.body as TaskPage;
      },
      made,
    );
  });
}

/** What one ListTasks page holds, as the kit reads it. */
interface TaskPage {
  tasks: Array<{ id: string; status?: { timestamp?: string } }>;
  nextPageToken: string;
  totalSize: number;
}

/** The page size the kit pages ListTasks with: small, so a few tasks span several pages. */
const PAGE_SIZE = 2;

/**
 * Follows nextPageToken from the first page to the last (at most 500 pages) and fails on what cursor pagination must
 * not do: a page larger than asked, a task twice, a totalSize that changes or differs from the tasks seen, a task the
 * kit made that no page holds, or tasks out of order (most recently updated first).
 */
async function pageThrough(
  label: string,
  page: (token: string) => Promise<TaskPage>,
  made: readonly string[],
): Promise<string> {
  const seen = new Set<string>();
  const stamps: Array<{ id: string; at: number }> = [];
  let token = '';
  let total: number | undefined;
  for (let n = 1; n <= 500; n++) {
    const p = await page(token);
    total ??= p.totalSize;
    if (p.totalSize !== total)
      throw new CheckFailure(`${label}: page ${n} says totalSize ${p.totalSize}, page 1 said ${total}`);
    if (p.tasks.length > PAGE_SIZE)
      throw new CheckFailure(
        `${label}: page ${n} holds ${p.tasks.length} tasks, asked for at most ${PAGE_SIZE}`,
      );
    for (const t of p.tasks) {
      if (seen.has(t.id))
        throw new CheckFailure(`${label}: task ${t.id} is listed twice (again on page ${n})`);
      seen.add(t.id);
      const at = Date.parse(t.status?.timestamp ?? '');
      if (!Number.isNaN(at)) stamps.push({ id: t.id, at });
    }
    if (p.nextPageToken === '') {
      const missing = made.filter((id) => !seen.has(id));
      if (missing.length > 0)
        throw new CheckFailure(`${label}: no page holds ${missing.join(', ')}, made by the kit`);
      if (seen.size !== total)
        throw new CheckFailure(`${label}: the pages hold ${seen.size} tasks, but totalSize is ${total}`);
      const late = stamps.findIndex((s, i) => i > 0 && s.at > (stamps[i - 1]?.at ?? s.at));
      if (late > 0)
        throw new CheckFailure(
          `${label}: task ${stamps[late]?.id} was updated after ${stamps[late - 1]?.id}, yet is listed after it (most recent first)`,
        );
      return `${seen.size} tasks over ${n} pages of ${PAGE_SIZE}`;
    }
    if (p.tasks.length === 0)
      throw new CheckFailure(
        `${label}: page ${n} is empty but names a next page (${JSON.stringify(p.nextPageToken)})`,
      );
    token = p.nextPageToken;
  }
  throw new CheckFailure(`${label}: still a next page after 500 pages`);
}

async function rpcChecks(
  { session, check, requirePassed }: SuiteContext,
  declared: Declared | undefined,
): Promise<void> {
  const skip = () => {
    if (!declared) throw new CheckSkipped('the card claims no JSONRPC interface');
    return declared.path || '/';
  };
  let id = 0;
  const call = (method: string, params: unknown, headers: Record<string, string> = V) =>
    session.call('POST', skip(), {
      json: { jsonrpc: '2.0', id: ++id, method, params },
      headers,
      expect: { 200: 'JsonRpcResponse' },
    });
  /** The answer's result, checked against its type, or a failure saying what came instead. */
  const resultOf = (x: Exchange & { problems: string[] }, type: string): unknown => {
    if (x.status !== 200)
      throw new CheckFailure(`${x.label}: answered HTTP ${x.status}, expected 200: ${excerpt(x.text)}`);
    if (x.problems.length > 0) throw new CheckFailure(x.problems.slice(0, 3).join('; '));
    const body = x.body as { result?: unknown; error?: { code: number; message: string } };
    if (body.error)
      throw new CheckFailure(`${x.label}: answered error ${body.error.code} ${body.error.message}`);
    // The envelope's schema leaves `result` open; the method's result type is checked here.
    const validate = (validators as unknown as Record<string, Validator>)[type];
    if (validate && !validate(body.result))
      throw new CheckFailure(
        describeErrors(validate.errors)
          .slice(0, 3)
          .map((i) => `${x.label}: /result${i.pointer}: ${i.message} (${type})`)
          .join('; '),
      );
    return body.result;
  };
  const errorOf = (
    x: Exchange & { problems: string[] },
    code: number,
    reason?: string,
  ): string | undefined => {
    const body = x.body as
      | { error?: { code?: number; data?: Array<{ '@type'?: string; reason?: string }> } }
      | undefined;
    if (body?.error?.code !== code) return `${x.label}: answered ${excerpt(x.text)}, expected error ${code}`;
    if (reason) {
      const info = (Array.isArray(body.error.data) ? body.error.data : []).find(
        (d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo',
      );
      if (info?.reason !== reason)
        return `${x.label}: the error's ErrorInfo reason is ${JSON.stringify(info?.reason)}, expected "${reason}"`;
    }
    return undefined;
  };
  let task: { id: string; status: { state: string } } | undefined;
  await check('a2a.rpc.send', async () => {
    const x = await call('SendMessage', message('Hello from the conformance kit. Plan a trip to Porto.'));
    const result = resultOf(x, 'SendMessageResponse');
    task = taskOf(result);
    return task ? `task ${task.id}, ${task.status.state}` : 'a direct message';
  });
  await check('a2a.rpc.get', async () => {
    requirePassed('a2a.rpc.send');
    if (!task)
      throw new CheckSkipped('the agent says it answers with a message, so there is no task to read');
    const result = resultOf(await call('GetTask', { id: task.id }), 'Task') as { id?: string };
    if (result?.id !== task.id)
      throw new CheckFailure(
        `GetTask: the task's id is ${JSON.stringify(result?.id)}, expected "${task.id}"`,
      );
    return undefined;
  });
  await check('a2a.rpc.not-found', async () => {
    const wrong = errorOf(
      await call('GetTask', { id: 'conformance-no-such-task' }),
      -32001,
      'TASK_NOT_FOUND',
    );
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
  await check('a2a.rpc.stream', async () => {
    const x = await session.stream('POST', skip(), 'sse', {
      json: {
        jsonrpc: '2.0',
        id: ++id,
        method: 'SendStreamingMessage',
        params: message('Plan a trip to Graz.'),
      },
      headers: V,
    });
    streamed(x);
    return `${x.items.length} events`;
  });
  await check('a2a.rpc.list', async () => {
    resultOf(await call('ListTasks', { pageSize: 5 }), 'ListTasksResponse');
    return undefined;
  });
  await check('a2a.rpc.cancel-terminal', async () => {
    requirePassed('a2a.rpc.send');
    if (!task || !TERMINAL.includes(task.status.state))
      throw new CheckSkipped('the agent claims no finished task to cancel');
    const wrong = errorOf(await call('CancelTask', { id: task.id }), -32002, 'TASK_NOT_CANCELABLE');
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
  await check('a2a.rpc.version', async () => {
    const wrong = errorOf(
      await call('GetTask', { id: 'x' }, { 'A2A-Version': '99.0' }),
      -32009,
      'VERSION_NOT_SUPPORTED',
    );
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
  await check('a2a.rpc.subscribe-terminal', async () => {
    requirePassed('a2a.rpc.send');
    if (!task || !TERMINAL.includes(task.status.state))
      throw new CheckSkipped('the agent claims no finished task');
    const x = await session.call('POST', skip(), {
      json: { jsonrpc: '2.0', id: ++id, method: 'SubscribeToTask', params: { id: task.id } },
      headers: V,
      expect: { 200: 'JsonRpcResponse' },
    });
    const wrong = errorOf(x, -32004, 'UNSUPPORTED_OPERATION');
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
  await check('a2a.rpc.history-zero', async () => {
    requirePassed('a2a.rpc.send');
    if (!task)
      throw new CheckSkipped('the agent says it answers with a message, so there is no task to read');
    const result = resultOf(await call('GetTask', { id: task.id, historyLength: 0 }), 'Task') as {
      history?: unknown[];
    };
    if (result.history !== undefined && result.history.length > 0)
      throw new CheckFailure(
        `GetTask with historyLength 0: the task carries ${result.history.length} history messages, expected none`,
      );
    return undefined;
  });
  await check('a2a.rpc.list-artifacts', async () => {
    const result = resultOf(await call('ListTasks', { pageSize: 20 }), 'ListTasksResponse') as {
      tasks: Array<{ id: string; artifacts?: unknown }>;
    };
    const with_ = result.tasks.filter((t) => t.artifacts !== undefined);
    if (with_.length > 0)
      throw new CheckFailure(
        `ListTasks: task ${with_[0]?.id} carries an artifacts field without includeArtifacts`,
      );
    return `${result.tasks.length} tasks`;
  });
  await check('a2a.rpc.list-pages', async () => {
    requirePassed('a2a.rpc.send');
    if (!task)
      throw new CheckSkipped('the agent says it answers with a message, so there are no tasks to list');
    const made = [task.id];
    for (let i = 0; i < PAGE_SIZE * 2; i++) {
      const t = taskOf(
        resultOf(
          await call('SendMessage', message(`Conformance page filler ${i}: say ok.`)),
          'SendMessageResponse',
        ),
      );
      if (t) made.push(t.id);
    }
    return pageThrough(
      'ListTasks',
      async (token) =>
        resultOf(
          await call('ListTasks', { pageSize: PAGE_SIZE, ...(token ? { pageToken: token } : {}) }),
          'ListTasksResponse',
        ) as TaskPage,
      made,
    );
  });
  await check('a2a.rpc.method-not-found', async () => {
    const wrong = errorOf(await call('NoSuchMethod', {}), -32601);
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
  await check('a2a.rpc.parse-error', async () => {
    const x = await session.call('POST', skip(), {
      body: '{"jsonrpc": "2.0", "method":',
      headers: { ...V, 'content-type': 'application/json' },
      expect: { '*': 'JsonRpcErrorResponse' },
    });
    const wrong = errorOf(x, -32700);
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
  await check('a2a.rpc.invalid-params', async () => {
    const wrong = errorOf(await call('SendMessage', { message: { role: 'ROLE_USER' } }), -32602);
    if (wrong) throw new CheckFailure(wrong);
    return undefined;
  });
}

/** A streamed answer's status, media type and stream-rule problems. */
function streamed(
  x: Exchange & {
    items: unknown[];
    issues: Array<{ index: number; pointer: string; message: string; rule: string }>;
  },
): void {
  if (x.status !== 200)
    throw new CheckFailure(`${x.label}: answered ${x.status}, expected 200: ${excerpt(x.text)}`);
  const type = x.headers.get('content-type') ?? '';
  if (!type.startsWith('text/event-stream'))
    throw new CheckFailure(`${x.label}: content-type is "${type}", expected text/event-stream`);
  if (x.items.length === 0) throw new CheckFailure(`${x.label}: the stream held no events`);
  if (x.issues.length > 0)
    throw new CheckFailure(
      x.issues
        .slice(0, 3)
        .map((i) => `${x.label}: event ${i.index}: ${i.pointer || '(event)'}: ${i.message} [${i.rule}]`)
        .join('; '),
    );
}
