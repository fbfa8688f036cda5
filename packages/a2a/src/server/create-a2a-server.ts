// An A2A agent (a card and a `run` function) served over both bindings: its TaskManager answers A2A's operations,
// and serveA2a puts them on HTTP+JSON and JSON-RPC.
import type { AgentStore } from '@agentproto/runtime';
import { Hono } from 'hono';
import type { A2aAgent, AgentCardInput } from '../agent/agent.js';
import { type SettleRetry, type TaskLimits, TaskManager } from '../agent/task-manager.js';
import { A2aError } from '../errors/a2a-error.js';
import type { AgentCard, SendMessageRequest } from '../generated/1.0/index.js';
import { PushNotifications, type PushOptions } from '../push/push-notifications.js';
import { cardForEveryVersion } from './card-versions.js';
import { cardWithBearer, challengeUnauthenticated, requireBearer } from './extended-card.js';
import {
  type A2aCall,
  type A2aOperations,
  SERVED_VERSIONS,
  type ServeA2aOptions,
  serveA2a,
} from './serve-a2a.js';

/** Options of createA2aServer. */
export interface A2aServerOptions extends Omit<ServeA2aOptions, 'app'> {
  /** Where tasks live (default: in memory). Share one store between processes to scale out. */
  store?: AgentStore;
  /**
   * The agent's public root URL, for the card's interfaces (default: the origin each card request arrives at). Set it
   * behind a proxy.
   */
  publicUrl?: string;
  /** What one task may hold (default `DEFAULT_TASK_LIMITS`). */
  taskLimits?: Partial<TaskLimits>;
  /** This process's name among those sharing the store (see `TaskManagerOptions.instance`). */
  instance?: string;
  /** How a turn's end is written again while the store is away (default `DEFAULT_SETTLE_RETRY`). */
  settleRetry?: Partial<SettleRetry>;
  /**
   * The card a client sees after authenticating (GetExtendedAgentCard, specification §3.1.11). A card that does not
   * declare `capabilities.extendedAgentCard` refuses the call (UnsupportedOperationError), one that declares it
   * without an extended card is ExtendedAgentCardNotConfiguredError (§3.3.4). Without `extendedCardToken` the server
   * checks no credentials for it: put your own authentication in front.
   */
  extendedCard?: AgentCardInput;
  /**
   * The bearer token GetExtendedAgentCard needs (`Authorization: Bearer <token>`, RFC 6750). With it the public card
   * declares `capabilities.extendedAgentCard`, a Bearer HTTPAuthSecurityScheme and the requirement of it, and a request
   * without the token is refused with 401 and a `WWW-Authenticate` challenge over both bindings (§7.4, §13.3).
   */
  extendedCardToken?: string;
  /**
   * Signs the public card (specification §8.4; `cardSigner` of `@agentproto/a2a/card-signing` makes one). The card is
   * signed once, when the server is made, so its interfaces must not depend on the request: give `publicUrl` or the
   * card's own `supportedInterfaces`.
   */
  signCard?: (card: AgentCard) => Promise<AgentCard>;
  /**
   * Push notifications (specification §3.1.7–3.1.10, §4.3), served when the card declares
   * `capabilities.pushNotifications`: which webhook hosts are allowed beyond public addresses, limits, delivery tries.
   */
  push?: PushOptions;
}

/** An A2A server: the Hono app, and the task manager behind it. */
export interface A2aServer {
  app: Hono;
  manager: TaskManager;
  /** The push notifications, when the card declares them: `close()` stops their deliveries. */
  push?: PushNotifications;
}

/** Serves an agent over HTTP+JSON and JSON-RPC. */
export function createA2aServer(agent: A2aAgent, options: A2aServerOptions = {}): A2aServer {
  const onError = options.onError ?? ((error: unknown, where: string) => console.error(`[${where}]`, error));
  // --- Push notifications: the configs SendMessage carries are attached before the turn's first update. ---
  let push: PushNotifications | undefined;
  /** The version of a translated client that sent a SendMessage: its inline config's deliveries are in its shapes. */
  const clientVersions = new WeakMap<SendMessageRequest, string>();
  const remember = (params: SendMessageRequest, call: A2aCall) => {
    // Read only when there is a config: the version is worked out on first read.
    if (!params.configuration?.taskPushNotificationConfig) return;
    const version = call.version;
    if (version !== undefined) clientVersions.set(params, version);
  };
  const pushing = agent.card.capabilities.pushNotifications === true;
  // --- end of push notifications ---
  const manager = new TaskManager(agent, {
    ...(pushing
      ? {
          beforeTurn: (taskId: string, after: number, request: SendMessageRequest) =>
            push?.attachInline(taskId, after, request, clientVersions.get(request)) ?? Promise.resolve(),
        }
      : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.taskLimits ? { limits: options.taskLimits } : {}),
    ...(options.instance === undefined ? {} : { instance: options.instance }),
    ...(options.settleRetry ? { settleRetry: options.settleRetry } : {}),
    onError: (error, taskId) => onError(error, `task ${taskId}`),
  });
  if (pushing)
    push = new PushNotifications(manager, options.push, (error, taskId) => onError(error, `push ${taskId}`));
  const rpcPath = options.rpcPath ?? '/jsonrpc';
  const streaming = agent.card.capabilities.streaming !== false;
  const streams = () => {
    if (!streaming) throw new A2aError('UNSUPPORTED_OPERATION', 'this agent does not stream');
  };
  /** The config a SendMessage carries: checked when the agent pushes, refused when it does not. */
  const checkPushConfig = async (send?: SendMessageRequest) => {
    if (push) return push.checkInline(send?.configuration?.taskPushNotificationConfig);
    if (send?.configuration?.taskPushNotificationConfig)
      throw new A2aError('PUSH_NOTIFICATION_NOT_SUPPORTED');
  };
  const pushOr = (): PushNotifications => {
    if (!push) throw new A2aError('PUSH_NOTIFICATION_NOT_SUPPORTED');
    return push;
  };
  // --- The extended card (§3.1.11): behind the bearer token when one is given. ---
  const token = options.extendedCardToken;
  if (token !== undefined && token.trim() === '') throw new Error('extendedCardToken must not be empty');
  const publicCard = token === undefined ? agent.card : cardWithBearer(agent.card);
  const extendedCard = options.extendedCard && {
    ...options.extendedCard,
    ...(token === undefined ? {} : { securitySchemes: publicCard.securitySchemes }),
    ...(token === undefined ? {} : { securityRequirements: publicCard.securityRequirements }),
  };
  const getExtendedCard = (request: Request): AgentCard => {
    // §3.3.4: no capability, UnsupportedOperationError; a capability without a card, not configured.
    if (publicCard.capabilities.extendedAgentCard !== true)
      throw new A2aError('UNSUPPORTED_OPERATION', 'this agent declares no extended agent card');
    if (token !== undefined) requireBearer(request, token);
    if (!extendedCard) throw new A2aError('EXTENDED_AGENT_CARD_NOT_CONFIGURED');
    // Its interfaces, when it names none, are the public card's.
    const supportedInterfaces =
      extendedCard.supportedInterfaces ?? cardAt(new URL(request.url).origin).supportedInterfaces;
    // With 0.3's fields beside (card-versions.ts): a 0.3 client asks the same operation through its translation.
    return cardForEveryVersion({ ...extendedCard, supportedInterfaces });
  };
  // --- end of the extended card ---
  const cardAt = (origin: string): AgentCard => {
    const root = (options.publicUrl ?? origin).replace(/\/$/, '');
    return {
      ...publicCard,
      // Both bindings of every version served (each the manifest lists), newest first: JSON-RPC at one endpoint,
      // HTTP+JSON at the root (0.3's paths are its own, under /v1/).
      supportedInterfaces:
        agent.card.supportedInterfaces ??
        SERVED_VERSIONS.flatMap((protocolVersion) => [
          { url: `${root}${rpcPath}`, protocolBinding: 'JSONRPC', protocolVersion },
          { url: root, protocolBinding: 'HTTP+JSON', protocolVersion },
        ]),
    };
  };
  // --- Card signing (§8.4): one signed card, made here, served to every request. ---
  let signedCard: Promise<AgentCard> | undefined;
  if (options.signCard) {
    if (options.publicUrl === undefined && agent.card.supportedInterfaces === undefined)
      throw new Error(
        'a signed card needs publicUrl (or the card its supportedInterfaces): it is signed once',
      );
    signedCard = options.signCard(cardAt(''));
    signedCard.catch((error: unknown) => onError(error, 'card signing'));
  }
  // --- end of card signing ---
  const operations: A2aOperations = {
    agentCard: (request) => signedCard ?? cardAt(new URL(request.url).origin),
    sendMessage: async (params, call) => {
      await checkPushConfig(params);
      remember(params, call);
      return manager.send(params, call.signal);
    },
    sendStreamingMessage: async (params, call) => {
      streams();
      await checkPushConfig(params);
      remember(params, call);
      return manager.stream(params, call.signal);
    },
    getTask: (params) => manager.get(params.id, params.historyLength, params.tenant),
    listTasks: (params) => manager.list(params),
    cancelTask: (params) => manager.cancel(params.id, params.tenant),
    subscribeToTask: (params, { signal }) => {
      streams();
      return manager.subscribe(params.id, signal, params.tenant);
    },
    createTaskPushNotificationConfig: (params, { version }) => pushOr().create(params, version),
    getTaskPushNotificationConfig: (params) => pushOr().get(params),
    listTaskPushNotificationConfigs: (params) => pushOr().list(params),
    deleteTaskPushNotificationConfig: (params) => pushOr().delete(params),
    getExtendedAgentCard: (_params, { request }) => getExtendedCard(request),
  };
  const {
    store: _store,
    publicUrl: _publicUrl,
    extendedCard: _extendedCard,
    extendedCardToken: _extendedCardToken,
    taskLimits: _taskLimits,
    instance: _instance,
    settleRetry: _settleRetry,
    signCard: _signCard,
    push: _push,
    ...serve
  } = options;
  // A refusal for credentials is a 401 whichever binding answered it (extended-card.ts).
  const app = token === undefined ? undefined : new Hono().use(challengeUnauthenticated);
  return {
    app: serveA2a(operations, { ...serve, onError, ...(app ? { app } : {}) }),
    manager,
    ...(push ? { push } : {}),
  };
}
