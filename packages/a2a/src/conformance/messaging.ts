// Messaging (specification §3.1.1, §3.1.2): SendMessage answers at once with a task or a message, and
// SendStreamingMessage streams one by the stream rules. The task SendMessage made is what the later checks build on.
import { expectEventStream, expectStreamRules } from '@agentproto/runtime/contract';
import { isObjectLike } from '../is-object-like.js';
import { type BindingChecks, type BindingSpec, type SendParams, SPEC } from './bindings.js';

/** A task as SendMessage answers it: what the later checks read. */
export interface SentTask {
  id: string;
  status: { state: string };
}

/** The messaging checks of one binding. */
export const messagingDefinitions = ({ prefix, name, section }: BindingSpec) => [
  {
    id: `a2a.${prefix}.send`,
    level: 'MUST' as const,
    title: `${name}: SendMessage answers with a task or a message`,
    ref: `${SPEC} §3.1.1, ${section}`,
    covers: ['send.answer'],
  },
  {
    id: `a2a.${prefix}.stream`,
    level: 'MUST' as const,
    title: `${name}: SendStreamingMessage streams a task or a message by the stream rules`,
    ref: `${SPEC} §3.1.2, ${section}`,
    covers: ['stream.patterns'],
  },
];

/** A user message with a fresh id. */
export const message = (text: string): SendParams => ({
  message: {
    messageId: `conformance-${Math.random().toString(36).slice(2)}`,
    role: 'ROLE_USER',
    parts: [{ text }],
  },
});

/** The task a SendMessageResponse names, or undefined for a direct message. */
export function taskOf(body: unknown): SentTask | undefined {
  const task = isObjectLike(body) ? body.task : undefined;
  if (!isObjectLike(task) || typeof task.id !== 'string' || !isObjectLike(task.status)) return undefined;
  const { state } = task.status;
  return typeof state === 'string' ? { id: task.id, status: { state } } : undefined;
}

/** Sends a message and streams another; returns the task SendMessage made, if it made one. */
export async function messagingChecks({ check }: BindingChecks): Promise<SentTask | undefined> {
  let task: SentTask | undefined;
  await check('send', async (b) => {
    const text = `Hello from the conformance kit. Plan a trip to ${b.spec.trips.send}.`;
    task = taskOf(b.result(await b.call('SendMessage', message(text))));
    return task ? `task ${task.id}, ${task.status.state}` : 'a direct message';
  });
  await check('stream', async (b) => {
    const x = await b.stream(message(`Plan a trip to ${b.spec.trips.stream}.`));
    expectEventStream(x);
    expectStreamRules(x);
    return `${x.items.length} events`;
  });
  return task;
}
