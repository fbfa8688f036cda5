// The two bindings A2A 1.0 serves its operations over (specification §9 JSON-RPC, §11 HTTP+JSON), as the checks
// drive them: an operation called by name, its result read, A2A's errors expected in the binding's own form. A check
// is written once, against `Binding`, and runs over each binding the card declares, under that binding's id. Each
// binding's own form is in its module (http-json-binding.ts, json-rpc-binding.ts).
import type { CheckedExchange, StreamedExchange, Validator } from '@agentproto/runtime/contract';
import type { Translator } from '@agentproto/runtime/translate';
import { type A2aErrorReason, ERROR_INFO_TYPE } from '../errors/a2a-errors.js';
import { TRAITS, type Version } from '../generated/versions.js';
import { isObjectLike } from '../is-object-like.js';
import { a2aVersion, TRANSLATED, validatorsOf } from '../version-data.js';

/** The specification every A2A requirement id cites. */
export const SPEC = 'A2A 1.0.1 specification';

/** The version a suite speaks: the header its requests carry, and the validators its results are read with. */
export interface Speaking {
  version: Version;
  /** The version header every request of the kit carries (§3.6.2): without it an agent may take the kit for 0.3. */
  headers: Readonly<Record<string, string>>;
  validators: Readonly<Record<string, Validator>>;
  /** The version's own names for what every binding carries (the manifest's traits). */
  types: { rpcResponse: string; rpcError: string; restError: string };
  /** Whether the card names this version's interfaces at its root (0.3), beside `supportedInterfaces`. */
  cardRootInterfaces: boolean;
  /**
   * For a version the package serves through a translation: the codecs to the version the checks are written in
   * (they call 1.0's operations and read 1.0's shapes; the wire carries this version's).
   */
  translator?: Translator;
}

/** What a suite for `version` speaks; a version the package does not list is a programming error. */
export function speaking(name: string): Speaking {
  const version = a2aVersion(name);
  const t = TRAITS[version];
  const translation = TRANSLATED[version];
  return {
    version,
    headers: t.sendsVersionHeader ? { 'A2A-Version': version } : {},
    validators: validatorsOf(version),
    types: { rpcResponse: t.rpcResponse, rpcError: t.rpcError, restError: t.restError },
    cardRootInterfaces: t.cardRootInterfaces,
    ...(translation ? { translator: translation.translator } : {}),
  };
}

/** What each binding is called, where the spec describes it, and what its checks' requests say. */
export const BINDINGS = [
  {
    prefix: 'rest',
    protocolBinding: 'HTTP+JSON',
    name: 'HTTP+JSON',
    section: '§11',
    // Each binding's turns name a city of their own, so a broken agent can single one request out.
    trips: { send: 'Lisbon', stream: 'Rome' },
  },
  {
    prefix: 'rpc',
    protocolBinding: 'JSONRPC',
    name: 'JSON-RPC',
    section: '§9',
    trips: { send: 'Porto', stream: 'Graz' },
  },
] as const;

/** One of BINDINGS. */
export type BindingSpec = (typeof BINDINGS)[number];
/** The JSON-RPC binding, which adds checks of its own. */
export const JSON_RPC = BINDINGS[1];

/** A user message, as SendMessage and SendStreamingMessage take it (§3.1.1). */
export interface SendParams {
  message: { messageId: string; role: string; parts: Array<{ text?: string }>; taskId?: string };
  configuration?: { returnImmediately?: boolean; taskPushNotificationConfig?: PushConfigParams };
}

/** A push notification config as the checks send it (§4.3.1). */
export interface PushConfigParams {
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}

/** The operations the checks call (§3.1), each with its parameters. */
export interface Operations {
  SendMessage: SendParams;
  GetTask: { id: string; historyLength?: number };
  ListTasks: { pageSize: number; pageToken?: string };
  CancelTask: { id: string };
  SubscribeToTask: { id: string };
  CreateTaskPushNotificationConfig: PushConfigParams & { taskId: string };
  GetTaskPushNotificationConfig: { taskId: string; id: string };
  ListTaskPushNotificationConfigs: { taskId: string };
  DeleteTaskPushNotificationConfig: { taskId: string; id: string };
  GetExtendedAgentCard: Record<string, never>;
}
/** The name of an operation a binding carries. */
export type Operation = keyof Operations;

/** The result type of the operations whose results the checks read. */
export const RESULTS: Partial<Record<Operation, string>> = {
  SendMessage: 'SendMessageResponse',
  GetTask: 'Task',
  ListTasks: 'ListTasksResponse',
  CreateTaskPushNotificationConfig: 'TaskPushNotificationConfig',
  GetTaskPushNotificationConfig: 'TaskPushNotificationConfig',
  ListTaskPushNotificationConfigs: 'ListTaskPushNotificationConfigsResponse',
  DeleteTaskPushNotificationConfig: 'Empty',
  GetExtendedAgentCard: 'AgentCard',
};

/** An answer to one operation. */
export type Answer = CheckedExchange & { operation: Operation };

/** A binding as the checks drive it. */
export interface Binding {
  spec: BindingSpec;
  /** The version the suite speaks. */
  speaking: Speaking;
  /** Where the card says the binding is served, relative to the agent the kit was pointed at. */
  path: string;
  /** Calls an operation (with the suite's version header unless `headers` says otherwise). */
  call<O extends Operation>(
    operation: O,
    params: Operations[O],
    headers?: Record<string, string>,
  ): Promise<Answer>;
  /** SendStreamingMessage (§3.1.2), its events read to the end. */
  stream(params: SendParams): Promise<StreamedExchange>;
  /** The operation's result, checked against its type; fails on an error or any other answer. */
  result<T>(x: Answer): T;
  /** Fails unless the answer is A2A's error `reason` in this binding's form (§5.4). */
  expectError(x: Answer, reason: A2aErrorReason): void;
}

/** A binding's checks: its ids, and `followUp` on its own earlier checks. */
export interface BindingChecks {
  /** Runs check `a2a.<prefix>.<name>`; it is skipped when the card declares no interface of this binding. */
  check(name: string, fn: (binding: Binding) => Promise<string | undefined>): Promise<boolean>;
  /** What this binding's check `name` learned (see `followUp`). */
  after<T>(name: string, learned: T | undefined | null | false, reason: string): T;
}

/** The ErrorInfo reason among an error's details, or what is wrong with it. */
export function reasonWrong(x: { label: string }, details: unknown, reason: string): string | undefined {
  const info = (Array.isArray(details) ? details.filter(isObjectLike) : []).find(
    (d) => d['@type'] === ERROR_INFO_TYPE,
  );
  return info?.reason === reason
    ? undefined
    : `${x.label}: the error's ErrorInfo reason is ${JSON.stringify(info?.reason)}, expected "${reason}"`;
}
