// The HTTP+JSON binding (specification §11) as the checks drive it: an operation per route, A2A's errors as an HTTP
// status with a google.rpc.Status body.
import { CheckFailure, expectBody, expectStatus, type SuiteContext } from '@agentproto/runtime/contract';
import { A2A_ERRORS } from '../errors/a2a-errors.js';
import { isObjectLike } from '../is-object-like.js';
import {
  type Answer,
  type Binding,
  type BindingSpec,
  type Operation,
  type Operations,
  RESULTS,
  reasonWrong,
  type Speaking,
} from './bindings.js';

/** HTTP+JSON (§11): an operation per route, errors as a status with a google.rpc.Status body. */
export function httpJsonBinding(
  { session }: SuiteContext,
  speaking: Speaking,
  spec: BindingSpec,
  base: string,
): Binding {
  const task = (id: string) => `${base}/tasks/${encodeURIComponent(id)}`;
  const query = (q: Record<string, string | number | undefined>) => {
    const set = Object.entries(q).filter(([, v]) => v !== undefined);
    return set.length === 0
      ? ''
      : `?${set.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&')}`;
  };
  // Each operation's route (§11.3): method, path, and the JSON body when it has one.
  const routes: { [O in Operation]: (p: Operations[O]) => [string, string, unknown?] } = {
    SendMessage: (p) => ['POST', `${base}/message:send`, p],
    GetTask: (p) => ['GET', `${task(p.id)}${query({ historyLength: p.historyLength })}`],
    ListTasks: (p) => ['GET', `${base}/tasks${query({ pageSize: p.pageSize, pageToken: p.pageToken })}`],
    CancelTask: (p) => ['POST', `${task(p.id)}:cancel`, {}],
    SubscribeToTask: (p) => ['POST', `${task(p.id)}:subscribe`],
    // Push notification configs (§11.3.3): the task in the path, the config in the body.
    CreateTaskPushNotificationConfig: ({ taskId, ...config }) => [
      'POST',
      `${task(taskId)}/pushNotificationConfigs`,
      config,
    ],
    GetTaskPushNotificationConfig: (p) => [
      'GET',
      `${task(p.taskId)}/pushNotificationConfigs/${encodeURIComponent(p.id)}`,
    ],
    ListTaskPushNotificationConfigs: (p) => ['GET', `${task(p.taskId)}/pushNotificationConfigs`],
    DeleteTaskPushNotificationConfig: (p) => [
      'DELETE',
      `${task(p.taskId)}/pushNotificationConfigs/${encodeURIComponent(p.id)}`,
    ],
    GetExtendedAgentCard: () => ['GET', `${base}/extendedAgentCard`],
  };
  return {
    spec,
    speaking,
    path: base,
    async call(operation, params, headers = speaking.headers) {
      const [method, path, json] = routes[operation](params);
      const result = RESULTS[operation];
      const x = await session.call(method, path, {
        ...(json === undefined ? {} : { json }),
        headers,
        expect: { ...(result ? { 200: result } : {}), '*': speaking.types.restError },
      });
      return { ...x, operation };
    },
    stream: (params) =>
      session.stream('POST', `${base}/message:stream`, 'sse', { json: params, headers: speaking.headers }),
    result: <T>(x: Answer) => expectBody<T>(x),
    expectError(x, reason) {
      expectStatus(x, A2A_ERRORS[reason].http, reason);
      const error = isObjectLike(x.body) ? x.body.error : undefined;
      const wrong = reasonWrong(x, isObjectLike(error) ? error.details : undefined, reason);
      if (wrong) throw new CheckFailure(wrong);
    },
  };
}
