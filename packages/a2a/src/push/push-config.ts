// A push notification config as a client gives it (specification §4.3.1, §4.3.2), checked beyond its schema before it
// is stored: a URL the agent may call (http or https, within the outbound policy: see outbound-policy.ts in the
// runtime), an authentication scheme from IANA's registry, and values that can travel in an HTTP header. What is wrong
// is InvalidParams (-32602) / 400, naming the field, what was expected and the value.
import { checkOutboundUrl, type OutboundPolicy, OutboundRefusedError } from '@agentproto/runtime';
import { InvalidParamsError } from '../errors/a2a-error.js';
import type { AuthenticationInfo, TaskPushNotificationConfig } from '../generated/1.0/index.js';

/** What push notifications may hold and how hard delivery tries: `createA2aServer({ push: { limits } })`. */
export interface PushLimits {
  /** Most configs one task may have (default 100); one more is InvalidParams / 400. */
  maxConfigsPerTask: number;
  /** Longest webhook URL, in characters (default 2,048). */
  maxUrlLength: number;
  /** Longest token, credentials or scheme, in bytes (default 4,096 each): they travel as HTTP headers. */
  maxHeaderValueBytes: number;
  /** Deadline of one delivery, connection included, in milliseconds (default 10,000; §13.2 recommends 10–30 s). */
  timeoutMs: number;
  /** Most attempts to deliver one update to one webhook (default 8); after the last the update is dropped. */
  maxAttempts: number;
  /** The wait before the second attempt, in milliseconds (default 1,000); it doubles for each later one. */
  backoffBaseMs: number;
  /** The longest wait between two attempts, in milliseconds (default 300,000: five minutes). */
  backoffMaxMs: number;
  /**
   * Most updates a webhook may fall behind the task (its outbox), default 1,000: past it the oldest undelivered ones
   * are dropped (and told to `onError`), so a dead webhook never makes the agent hold a task's whole history for it.
   */
  maxPending: number;
  /**
   * Most webhook URLs kept as checked (default 1,024): a URL that passed the config-time check is not checked again
   * for a minute; past this many, the one checked longest ago is forgotten.
   */
  maxCheckedUrls: number;
}

/** The defaults of PushLimits. */
export const DEFAULT_PUSH_LIMITS: Readonly<PushLimits> = Object.freeze({
  maxConfigsPerTask: 100,
  maxUrlLength: 2048,
  maxHeaderValueBytes: 4096,
  timeoutMs: 10_000,
  maxAttempts: 8,
  backoffBaseMs: 1_000,
  backoffMaxMs: 300_000,
  maxPending: 1_000,
  maxCheckedUrls: 1_024,
});

/**
 * The HTTP authentication schemes IANA registers (https://www.iana.org/assignments/http-authschemes/), which
 * AuthenticationInfo.scheme names (§4.3.2; compared without case, RFC 9110 §11.1). Any other is refused: the
 * receiver could not read it.
 */
export const AUTH_SCHEMES: readonly string[] = [
  'Basic',
  'Bearer',
  'Concealed',
  'Digest',
  'DPoP',
  'GNAP',
  'HOBA',
  'Mutual',
  'Negotiate',
  'OAuth',
  'PrivateToken',
  'SCRAM-SHA-1',
  'SCRAM-SHA-256',
  'vapid',
];

/** AUTH_SCHEMES in lower case: a scheme is looked up once per config, not compared with each. */
const SCHEMES_BY_CASE: ReadonlySet<string> = new Set(AUTH_SCHEMES.map((s) => s.toLowerCase()));

/** Visible ASCII and spaces: what a header value may hold without being folded, split or refused by a receiver. */
const HEADER_VALUE = /^[\x20-\x7e]*$/;

/** Where in the request the config sits, as google.rpc.BadRequest names fields (`configuration.taskPushNotificationConfig`). */
type At = (field: string) => string;

/**
 * The config as it is kept: its declared fields only (an unknown field is not stored), each checked. `id` and
 * `taskId` are the caller's to set. Throws InvalidParamsError naming the field.
 */
export function checkConfig(
  given: TaskPushNotificationConfig,
  limits: Readonly<PushLimits>,
  at: At = (field) => field,
  /** The URL is one CheckedWebhooks knows: it passed these checks under the same limits, and is not parsed again. */
  urlKnown = false,
): TaskPushNotificationConfig {
  const { url, token, authentication, tenant } = given;
  if (typeof url !== 'string' || url === '')
    throw new InvalidParamsError(at('url'), 'a webhook URL is required (an absolute http or https URL)');
  if (url.length > limits.maxUrlLength)
    throw new InvalidParamsError(
      at('url'),
      `the URL has ${url.length} characters, more than the ${limits.maxUrlLength} a webhook URL may have`,
    );
  if (!urlKnown) checkUrl(url, at);
  const config: TaskPushNotificationConfig = { url };
  if (tenant !== undefined) config.tenant = tenant;
  if (token !== undefined && token !== '') config.token = headerValue(token, at('token'), limits);
  if (authentication !== undefined) config.authentication = checkAuthentication(authentication, at, limits);
  return config;
}

/** An absolute http or https URL, or InvalidParams naming the field. */
function checkUrl(url: string, at: At): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidParamsError(
      at('url'),
      `expected an absolute http or https URL, got ${JSON.stringify(url)}`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new InvalidParamsError(
      at('url'),
      `expected an http or https URL, got the ${parsed.protocol.slice(0, -1)} scheme in ${JSON.stringify(url)}`,
    );
}

function checkAuthentication(
  given: AuthenticationInfo,
  at: At,
  limits: Readonly<PushLimits>,
): AuthenticationInfo {
  const { scheme, credentials } = given;
  if (typeof scheme !== 'string' || scheme === '')
    throw new InvalidParamsError(
      at('authentication.scheme'),
      `an authentication scheme is required (one of ${AUTH_SCHEMES.join(', ')})`,
    );
  if (!SCHEMES_BY_CASE.has(scheme.toLowerCase()))
    throw new InvalidParamsError(
      at('authentication.scheme'),
      `expected an HTTP authentication scheme IANA registers (${AUTH_SCHEMES.join(', ')}), got ${JSON.stringify(scheme.slice(0, 100))}`,
    );
  const out: AuthenticationInfo = { scheme };
  if (credentials !== undefined && credentials !== '')
    out.credentials = headerValue(credentials, at('authentication.credentials'), limits);
  return out;
}

function headerValue(value: string, field: string, limits: Readonly<PushLimits>): string {
  if (!HEADER_VALUE.test(value))
    throw new InvalidParamsError(
      field,
      'expected visible ASCII characters and spaces only (it is sent as an HTTP header value)',
    );
  if (value.length > limits.maxHeaderValueBytes)
    throw new InvalidParamsError(
      field,
      `${value.length} bytes, more than the ${limits.maxHeaderValueBytes} a header value may have here`,
    );
  return value;
}

/**
 * Refuses a webhook the outbound policy does not let the agent call: a loopback, private, link-local, unique-local
 * or metadata address, or a name resolving to one, unless its host is allowed (§13.2). Checked again at each
 * connection.
 */
export async function checkWebhook(url: string, policy: OutboundPolicy, field: string): Promise<void> {
  try {
    await checkOutboundUrl(url, policy);
  } catch (error) {
    if (error instanceof OutboundRefusedError)
      throw new InvalidParamsError(field, `the agent does not call this webhook: ${error.message}`);
    throw error;
  }
}

/**
 * How long a webhook URL stays checked, in milliseconds: the names it holds may come to resolve elsewhere. (Each
 * connection checks the addresses it connects to whatever this says: that check is the one that counts.)
 */
export const CHECKED_WEBHOOK_MS = 60_000;

/**
 * The webhook URLs that passed checkWebhook under one policy lately (its check of the URL covers checkConfig's: an
 * absolute http or https URL): a client that sends its config with every message has it parsed, checked and its host
 * resolved once a minute, not once a message. Bounded (PushLimits.maxCheckedUrls); only URLs that passed are kept, so a
 * refused one is checked, and refused, every time.
 */
export class CheckedWebhooks {
  /** When each URL's check runs out (on `now`), oldest check first. */
  readonly #until = new Map<string, number>();

  constructor(
    readonly policy: OutboundPolicy,
    readonly max: number = DEFAULT_PUSH_LIMITS.maxCheckedUrls,
    readonly now: () => number = Date.now,
  ) {}

  /** Whether `url` passed both checks within the last CHECKED_WEBHOOK_MS. */
  has(url: string): boolean {
    const until = this.#until.get(url);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.#until.delete(url);
    return false;
  }

  /** checkWebhook, unless `url` passed it lately; a URL that passes is kept. Throws as checkWebhook does. */
  async check(url: string, field: string): Promise<void> {
    if (this.has(url)) return;
    await checkWebhook(url, this.policy, field);
    this.#until.delete(url);
    if (this.#until.size >= this.max) {
      const oldest = this.#until.keys().next();
      if (!oldest.done) this.#until.delete(oldest.value);
    }
    this.#until.set(url, this.now() + CHECKED_WEBHOOK_MS);
  }
}
