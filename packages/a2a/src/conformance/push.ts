// Push notifications (specification §3.1.7–3.1.10, §4.3.3, §6.6, §13.2), for an agent whose card declares them: the
// kit runs a webhook receiver on 127.0.0.1 and asks the agent to call it. A SendMessage carries a config (§6.6) on a
// task that waits for input; its updates must arrive as StreamResponses with the config's Authorization. A second
// config is made, read, listed and deleted (twice: idempotent), and once it is deleted the task's next turn must
// reach the first config only. An agent that refuses to call 127.0.0.1 (as it should by default, §13.2) has these
// checks skipped, saying how to allow it: the reference agent takes `--push-allow 127.0.0.1`.
import { CheckFailure, CheckSkipped, type SuiteContext } from '@agentproto/runtime/contract';
import { isObjectLike } from '../is-object-like.js';
import { type Received, startWebhookReceiver, type WebhookReceiver } from '../push/webhook-receiver.js';
import { type Answer, type Binding, type BindingChecks, type BindingSpec, SPEC } from './bindings.js';
import { message, type SentTask, taskOf } from './messaging.js';

/** How long the kit waits for a delivery it expects, in milliseconds. */
export const PUSH_WAIT_MS = 5_000;
/** How long the kit watches a deleted config's webhook after the task's last update reached the other one. */
const GRACE_MS = 500;
const TERMINAL = ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'];
/** Why the push checks are skipped for an agent that does not push. */
const NO_PUSH = 'the card claims no push notifications (capabilities.pushNotifications)';

/** The push checks of one binding. */
export const pushDefinitions = ({ prefix, name }: BindingSpec) => [
  {
    id: `a2a.${prefix}.push-delivery`,
    level: 'MUST' as const,
    title: `${name}: a SendMessage's push config gets the task's updates as StreamResponses (application/a2a+json)`,
    ref: `${SPEC} §4.3.3, §6.6`,
    covers: ['push.delivery'],
  },
  {
    id: `a2a.${prefix}.push-auth`,
    level: 'MUST' as const,
    title: `${name}: each delivery carries Authorization: <scheme> <credentials> from the config`,
    ref: `${SPEC} §4.3.3, §13.2`,
    covers: ['push.auth'],
  },
  {
    id: `a2a.${prefix}.push-config`,
    level: 'MUST' as const,
    title: `${name}: a push config is created with an id, read back and listed`,
    ref: `${SPEC} §3.1.7–§3.1.9`,
    covers: ['push.configs'],
  },
  {
    id: `a2a.${prefix}.push-delete`,
    level: 'MUST' as const,
    title: `${name}: deleting a push config is idempotent, and it is gone after`,
    ref: `${SPEC} §3.1.10`,
    covers: ['push.delete'],
  },
  {
    id: `a2a.${prefix}.push-after-delete`,
    level: 'MUST' as const,
    title: `${name}: a deleted push config gets none of the task's later updates`,
    ref: `${SPEC} §3.1.10`,
    covers: ['push.delete'],
  },
];

/** The receiver one suite run shares between bindings, started when the first push check needs it. */
export interface PushKit {
  receiver(): Promise<WebhookReceiver>;
  /** Whether the card declares push notifications (read once). */
  declared(): Promise<boolean>;
  close(): Promise<void>;
}

/** The push kit of one run: its card read for the capability, its receiver started on demand. */
export function pushKit({ session }: SuiteContext): PushKit {
  let started: Promise<WebhookReceiver> | undefined;
  let declared: Promise<boolean> | undefined;
  return {
    receiver: () => {
      started ??= startWebhookReceiver();
      return started;
    },
    declared: () => {
      declared ??= session
        .call('GET', '/.well-known/agent-card.json')
        .then(
          (x) =>
            isObjectLike(x.body) &&
            isObjectLike(x.body.capabilities) &&
            x.body.capabilities.pushNotifications === true,
        );
      return declared;
    },
    close: async () => (started ? (await started).close() : undefined),
  };
}

/** A delivery's task id, whichever member of the StreamResponse it is. */
function taskIdOf(body: unknown): string | undefined {
  if (!isObjectLike(body)) return undefined;
  for (const key of ['statusUpdate', 'artifactUpdate'] as const) {
    const event = body[key];
    if (isObjectLike(event) && typeof event.taskId === 'string') return event.taskId;
  }
  const task = body.task;
  return isObjectLike(task) && typeof task.id === 'string' ? task.id : undefined;
}

/** Whether a delivery's body is a StreamResponse: an object holding one of its four members as an object. */
function isStreamResponse(body: unknown): boolean {
  return (
    isObjectLike(body) &&
    ['task', 'message', 'statusUpdate', 'artifactUpdate'].some((k) => isObjectLike(body[k]))
  );
}

/** The state a delivery reports, when it is a status update or a task. */
function stateOf(body: unknown): string | undefined {
  if (!isObjectLike(body)) return undefined;
  const holder = isObjectLike(body.statusUpdate)
    ? body.statusUpdate
    : isObjectLike(body.task)
      ? body.task
      : undefined;
  const status = holder?.status;
  return isObjectLike(status) && typeof status.state === 'string' ? status.state : undefined;
}

/** Waits for deliveries at `path`, or fails saying how many came. */
async function delivered(receiver: WebhookReceiver, path: string, count = 1): Promise<Received[]> {
  try {
    return await receiver.waitFor(count, path, PUSH_WAIT_MS);
  } catch {
    const got = receiver.received.filter((r) => r.path.startsWith(path)).length;
    throw new CheckFailure(
      `the webhook ${receiver.url}${path} got ${got} deliveries within ${PUSH_WAIT_MS / 1000} s, expected ${count} or more`,
    );
  }
}

/** An answer that is an error the agent gives for a config it will not use: the webhook refused (§13.2). */
function refusedWebhook(b: Binding, x: Answer): string | undefined {
  if (x.status === 200 && !(isObjectLike(x.body) && isObjectLike(x.body.error))) return undefined;
  return `the agent says it will not call the kit's webhook on 127.0.0.1 (${x.label} answered ${x.status}: ${x.text.slice(0, 200)}); allow 127.0.0.1 for push (the reference agent: --push-allow 127.0.0.1) to run the push checks over ${b.spec.name}`;
}

/** What the first check learned: the task with its inline config, and where its deliveries go. */
interface Pushed {
  task: SentTask;
  base: string;
  credentials: string;
}

/** The push checks of one binding, in order; each builds on what the previous ones learned. */
export async function pushChecks({ check, after }: BindingChecks, kit: PushKit): Promise<void> {
  const nonce = Math.random().toString(36).slice(2, 10);
  let pushed: Pushed | undefined;
  /** Why the first check was skipped: every later one is skipped for the same reason. */
  let skipped: string | undefined;
  const skip = (reason: string): never => {
    skipped = reason;
    throw new CheckSkipped(reason);
  };
  const skipUnlessDeclared = async () => {
    if (skipped) throw new CheckSkipped(skipped);
    if (!(await kit.declared())) skip(NO_PUSH);
  };
  await check('push-delivery', async (b) => {
    await skipUnlessDeclared();
    const receiver = await kit.receiver();
    const base = `/${nonce}/${b.spec.prefix}`;
    const credentials = `kit-${nonce}`;
    // A task that asks for input (no city), answered at once: it stays open for the checks that follow.
    const x = await b.call('SendMessage', {
      ...message('Plan a trip'),
      configuration: {
        returnImmediately: true,
        taskPushNotificationConfig: {
          url: `${receiver.url}${base}/inline`,
          token: `token-${nonce}`,
          authentication: { scheme: 'Bearer', credentials },
        },
      },
    });
    const refused = refusedWebhook(b, x);
    if (refused) skip(refused);
    const task = taskOf(b.result(x));
    if (!task) return skip('the agent says it answers with a message: there is no task to push');
    pushed = { task, base, credentials };
    const [first] = await delivered(receiver, `${base}/inline`);
    if (!first) throw new CheckFailure('no delivery');
    const type = String(first.headers['content-type'] ?? '');
    if (!type.startsWith('application/a2a+json'))
      throw new CheckFailure(
        `a delivery's Content-Type is ${JSON.stringify(type)}, expected application/a2a+json`,
      );
    const validate = b.speaking.validators.StreamResponse;
    if (validate && !validate(first.body))
      throw new CheckFailure(
        `a delivery is not a StreamResponse: ${JSON.stringify(first.body).slice(0, 300)}`,
      );
    const about = taskIdOf(first.body);
    if (about !== task.id)
      throw new CheckFailure(`a delivery names task ${JSON.stringify(about)}, expected "${task.id}"`);
    return `task ${task.id}: ${Object.keys(isObjectLike(first.body) ? first.body : {}).join(', ')} delivered`;
  });
  /** The task push-delivery made (its delivery need not have passed: the configs' checks do not build on it). */
  const learned = () => {
    if (!pushed) throw new CheckSkipped('the push-delivery check made no task with a config');
    return pushed;
  };
  await check('push-auth', async () => {
    await skipUnlessDeclared();
    const { base, credentials } = after('push-delivery', pushed, 'the push-delivery check made no task');
    const receiver = await kit.receiver();
    const wrong = receiver.received
      .filter((r) => r.path.startsWith(`${base}/inline`))
      .find((r) => r.headers.authorization !== `Bearer ${credentials}`);
    if (wrong)
      throw new CheckFailure(
        `a delivery's Authorization is ${JSON.stringify(wrong.headers.authorization ?? null)}, expected "Bearer ${credentials}"`,
      );
    return undefined;
  });
  let created: { id: string; taskId: string } | undefined;
  await check('push-config', async (b) => {
    await skipUnlessDeclared();
    const { task, base } = learned();
    const state = b.result<{ status?: { state?: string } }>(await b.call('GetTask', { id: task.id })).status
      ?.state;
    if (state && TERMINAL.includes(state))
      throw new CheckSkipped(
        `the agent says task ${task.id} is ${state}: a config can be made only on a task that goes on`,
      );
    const receiver = await kit.receiver();
    const url = `${receiver.url}${base}/created`;
    const made = b.result<{ id?: string; taskId?: string; url?: string }>(
      await b.call('CreateTaskPushNotificationConfig', { taskId: task.id, url }),
    );
    if (typeof made.id !== 'string' || made.id === '')
      throw new CheckFailure(`the created config has no id: ${JSON.stringify(made)}`);
    if (made.url !== url)
      throw new CheckFailure(`the created config's url is ${JSON.stringify(made.url)}, expected "${url}"`);
    created = { id: made.id, taskId: task.id };
    const read = b.result<{ id?: string; url?: string }>(
      await b.call('GetTaskPushNotificationConfig', { taskId: task.id, id: made.id }),
    );
    if (read.id !== made.id || read.url !== url)
      throw new CheckFailure(
        `GetTaskPushNotificationConfig answers ${JSON.stringify(read)}, expected id "${made.id}" and url "${url}"`,
      );
    const listed = b.result<{ configs?: Array<{ id?: string }> }>(
      await b.call('ListTaskPushNotificationConfigs', { taskId: task.id }),
    );
    if (!(listed.configs ?? []).some((c) => c.id === made.id))
      throw new CheckFailure(`ListTaskPushNotificationConfigs leaves out config ${made.id}`);
    return `config ${made.id}`;
  });
  const made = () => after('push-config', created, 'the push-config check made no config');
  await check('push-delete', async (b) => {
    await skipUnlessDeclared();
    const { id, taskId } = made();
    for (const n of ['first', 'second']) {
      const x = await b.call('DeleteTaskPushNotificationConfig', { taskId, id });
      if (x.status !== 200 || (isObjectLike(x.body) && isObjectLike(x.body.error)))
        throw new CheckFailure(
          `the ${n} DeleteTaskPushNotificationConfig answered ${x.status}: ${x.text.slice(0, 200)}`,
        );
    }
    b.expectError(await b.call('GetTaskPushNotificationConfig', { taskId, id }), 'TASK_NOT_FOUND');
    return undefined;
  });
  await check('push-after-delete', async (b) => {
    await skipUnlessDeclared();
    const { task, base } = learned();
    made();
    const receiver = await kit.receiver();
    const inline = `${base}/inline`;
    const before = receiver.received.filter((r) => r.path.startsWith(inline)).length;
    // The task's next turn (a city answers its question) sends updates to the config still there, up to the end.
    const answer = message('Lisbon');
    const x = await b.call('SendMessage', { ...answer, message: { ...answer.message, taskId: task.id } });
    b.result(x);
    const ended = async () => {
      for (let n = before + 1; n <= before + 1000; n++) {
        const got = await delivered(receiver, inline, n);
        // A delivery that is no StreamResponse cannot say the task ended: fail at once (push-delivery names the
        // fault) rather than wait for an end this check could not see.
        const foreign = got.slice(before).find((r) => !isStreamResponse(r.body));
        if (foreign)
          throw new CheckFailure(
            `a delivery to ${receiver.url}${foreign.path} is not a StreamResponse (one of task, message, statusUpdate, artifactUpdate), so the task's end cannot be told: ${JSON.stringify(foreign.body).slice(0, 200)}`,
          );
        if (got.some((r) => TERMINAL.includes(stateOf(r.body) ?? ''))) return;
      }
    };
    await ended();
    // The deleted config's webhook is given a moment more than the other's last update.
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS));
    const stray = receiver.received.filter((r) => r.path.startsWith(`${base}/created`));
    if (stray.length > 0)
      throw new CheckFailure(
        `the deleted config's webhook got ${stray.length} deliveries after DeleteTaskPushNotificationConfig, expected none`,
      );
    return undefined;
  });
}
