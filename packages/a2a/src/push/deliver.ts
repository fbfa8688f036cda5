// One delivery of one task update to one webhook (specification §4.3.3): a POST of the StreamResponse as
// `application/a2a+json` (or, to a config a 0.3 client made, the 0.3 Task as `application/json`: push-payload.ts), with `Authorization: <scheme> <credentials>` from the config's authentication and its token
// in `X-A2A-Notification-Token` (DECISIONS 105). What the answer means for the outbox: delivered, worth trying again,
// or not.
import {
  type OutboundAnswer,
  type OutboundPost,
  OutboundRefusedError,
  postOutbound,
} from '@agentproto/runtime';
import type { TaskPushNotificationConfig } from '../generated/1.0/index.js';

/** The header that carries a config's token: 0.3's §9.5 example and @a2a-js/sdk use it; 1.0 names none. */
export const NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';
/** The media type of a delivery's body (§4.3.3). */
export const PUSH_MEDIA_TYPE = 'application/a2a+json';

/** Sends one POST: `postOutbound` of the runtime, or a stand-in. */
export type PostFunction = (url: string, post: OutboundPost) => Promise<OutboundAnswer>;

/** What became of one attempt. */
export type Outcome = { delivered: true } | { delivered: false; retry: boolean; reason: string };

/** The outcome of every delivered attempt: one object, not one per delivery. */
const DELIVERED: Outcome = Object.freeze({ delivered: true });

/** What one delivery POSTs: the body, and its media type. */
export interface PushPayload {
  body: string;
  mediaType: string;
}

/** The headers of a delivery to `config`: made once per config and media type, not per delivery (outbox.ts). */
export function deliveryHeaders(
  config: TaskPushNotificationConfig,
  mediaType: string = PUSH_MEDIA_TYPE,
): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': mediaType, 'user-agent': 'agentproto-a2a' };
  const auth = config.authentication;
  if (auth) headers.authorization = auth.credentials ? `${auth.scheme} ${auth.credentials}` : auth.scheme;
  if (config.token) headers[NOTIFICATION_TOKEN_HEADER.toLowerCase()] = config.token;
  return headers;
}

/**
 * Tries once: `post` (its headers from deliveryHeaders) to `url`. A 2xx is delivered; 408, 425, 429 and 5xx, a
 * timeout and a failed connection are worth another try; any other status (a redirect, which is never followed, or a
 * 4xx) and a refused address are not.
 */
export async function deliverOnce(
  url: string,
  post: OutboundPost,
  send: PostFunction = postOutbound,
): Promise<Outcome> {
  try {
    const { status } = await send(url, post);
    if (status >= 200 && status < 300) return DELIVERED;
    const retry = status === 408 || status === 425 || status === 429 || status >= 500;
    const what = status >= 300 && status < 400 ? ' (a redirect: not followed)' : '';
    return { delivered: false, retry, reason: `the webhook answered ${status}${what}` };
  } catch (error) {
    if (error instanceof OutboundRefusedError)
      return { delivered: false, retry: false, reason: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { delivered: false, retry: true, reason: `the webhook could not be reached: ${message}` };
  }
}
