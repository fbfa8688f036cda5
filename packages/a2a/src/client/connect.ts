// A JSON-RPC client written against A2A 1.0 for any agent it can reach: the card says which versions the agent
// serves (1.0 `supportedInterfaces`, or 0.3's root fields); a 1.0 interface is used as it is, and otherwise a version
// the package translates (0.3) is spoken through the generated codecs, so the caller's code and types stay 1.0's.
import { DEFAULT_LIMITS, fetchWithin, type RpcClientOptions, readLimitedBytes } from '@agentproto/runtime';
import { translateClient } from '@agentproto/runtime/translate';
import { type A2aRpcClient, createA2aRpcClient } from '../generated/1.0/rpc-client.js';
import { isVersion } from '../generated/versions.js';
import { isObjectLike } from '../is-object-like.js';
import {
  HANDLER_VERSION,
  isNative,
  majorMinor,
  NATIVE_VERSIONS,
  SERVED_VERSIONS,
  TRANSLATED,
  VERSION_WHEN_UNSAID,
} from '../version-data.js';

/** What connectA2a found: the version it speaks to the agent, where, and the client (always 1.0's methods). */
export interface A2aConnection {
  version: string;
  url: string;
  client: A2aRpcClient;
}

const versionOf = (v: unknown) => (typeof v === 'string' ? majorMinor(v) : undefined);

/** The objects of a card field that should be a list of them; anything else in it is skipped. */
const objectsOf = (list: unknown): Array<Record<string, unknown>> =>
  Array.isArray(list) ? list.filter(isObjectLike) : [];

/** What a thrown value says. */
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The JSON-RPC interfaces a card declares, by version (Major.Minor), in the card's order. */
export function jsonRpcInterfaces(card: unknown): Array<{ version: string; url: string }> {
  const out: Array<{ version: string; url: string }> = [];
  if (!isObjectLike(card)) return out;
  for (const i of objectsOf(card.supportedInterfaces)) {
    const version = versionOf(i.protocolVersion);
    if (i.protocolBinding === 'JSONRPC' && version && typeof i.url === 'string')
      out.push({ version, url: i.url });
  }
  // A 0.3 card names its interfaces at its root (0.3 §5.6): the main one (JSONRPC when it says no transport), then
  // the others. A root `url` without a `protocolVersion` is VERSION_WHEN_UNSAID's (0.3's cards default it to 0.3.0).
  const root = versionOf(card.protocolVersion ?? (card.url === undefined ? undefined : VERSION_WHEN_UNSAID));
  if (root && typeof card.url === 'string' && (card.preferredTransport ?? 'JSONRPC') === 'JSONRPC')
    out.push({ version: root, url: card.url });
  for (const i of objectsOf(card.additionalInterfaces))
    if (root && i.transport === 'JSONRPC' && typeof i.url === 'string')
      out.push({ version: root, url: i.url });
  return out;
}

/** The methods of 1.0 that answer with a stream. */
const STREAMS = new Set(['SendStreamingMessage', 'SubscribeToTask']);

/**
 * The versions the client speaks, in the order it prefers them: the one its types are written in, then the others it
 * speaks natively (same wire), then those it reaches through a translation, newest first.
 */
const SPOKEN: readonly string[] = [...new Set([HANDLER_VERSION, ...NATIVE_VERSIONS, ...SERVED_VERSIONS])];

/**
 * Reads the agent card at `cardUrl` and returns a 1.0 JSON-RPC client for the best interface it declares: 1.0 if it
 * has one, else another version it speaks natively, else one this package translates (0.3), newest first. Throws
 * naming the versions the card offers when none of them is spoken here.
 */
export async function connectA2a(
  cardUrl: string,
  options: Omit<RpcClientOptions, 'url'> = {},
): Promise<A2aConnection> {
  const fetcher = options.fetch ?? ((request: Request) => fetch(request));
  const res = await fetchWithin(fetcher, options.timeoutMs)(new Request(cardUrl));
  if (!res.ok) throw new Error(`${cardUrl}: the card answered ${res.status}`);
  // A card is read as any JSON body is, to the runtime's limit: a peer cannot make the client hold more.
  const read = await readLimitedBytes(res, DEFAULT_LIMITS.jsonBytes);
  if (!read.ok) throw new Error(`${cardUrl}: the card is over ${DEFAULT_LIMITS.jsonBytes} bytes`);
  let card: unknown;
  try {
    card = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch (error) {
    throw new Error(`${cardUrl}: the card is not JSON (${errorMessage(error)})`);
  }
  if (!isObjectLike(card)) throw new Error(`${cardUrl}: the card is not a JSON object`);
  const offered = jsonRpcInterfaces(card);
  const pick = SPOKEN.map((v) => offered.find((i) => i.version === v)).find((i) => i !== undefined);
  const translation = pick && isVersion(pick.version) ? TRANSLATED[pick.version] : undefined;
  if (pick && isNative(pick.version))
    return {
      version: pick.version,
      url: pick.url,
      client: createA2aRpcClient({
        ...options,
        url: pick.url,
        headers: { ...options.headers, 'A2A-Version': pick.version },
      }),
    };
  if (!pick || !translation)
    throw new Error(
      `${cardUrl}: the card offers JSON-RPC for ${[...new Set(offered.map((i) => i.version))].join(', ') || 'no version'}; this client speaks ${SPOKEN.join(', ')}`,
    );
  // The generated 1.0 client, each method the translation maps replaced by one that speaks the older wire: a method
  // the older version lacks (ListTasks) stays 1.0's call, which the agent answers with method-not-found.
  const base = createA2aRpcClient({ ...options, url: pick.url });
  const methods = translateClient(translation.translator, base.rpc, STREAMS);
  // sound: translateClient makes one function per 1.0 method the table maps, named by it, taking that method's params
  // and options and answering its result (or stream of events) translated up by the generated codecs: the signature
  // of the generated method it replaces.
  const client = { ...base, ...methods } as A2aRpcClient;
  return { version: pick.version, url: pick.url, client };
}
