// A JSON-RPC client written against A2A 1.0 for any agent it can reach: the card says which versions the agent
// serves (1.0 `supportedInterfaces`, or 0.3's root fields); a 1.0 interface is used as it is, and otherwise a version
// the package translates (0.3) is spoken through the generated codecs, so the caller's code and types stay 1.0's.
import {
  DEFAULT_LIMITS,
  fetchWithin,
  RpcCaller,
  type RpcClientOptions,
  readLimitedBytes,
} from '@agentproto/runtime';
import { type TranslatedCaller, translateClient } from '@agentproto/runtime/translate';
import { type A2aRpcClient, createA2aRpcClient } from '../generated/1.0/rpc-client.js';
import { TRANSLATIONS } from '../generated/translations.js';
import { A2A_PROTOCOL_VERSION } from '../server/serve-a2a.js';

/** What connectA2a found: the version it speaks to the agent, where, and the client (always 1.0's methods). */
export interface A2aConnection {
  version: string;
  url: string;
  client: A2aRpcClient;
}

interface CardInterfaces {
  supportedInterfaces?: Array<{ url?: string; protocolBinding?: string; protocolVersion?: string }>;
  protocolVersion?: string;
  url?: string;
  preferredTransport?: string;
  additionalInterfaces?: Array<{ url?: string; transport?: string }>;
}

const majorMinor = (v: unknown) => (typeof v === 'string' ? v.split('.').slice(0, 2).join('.') : undefined);

/** The JSON-RPC interfaces a card declares, by version (Major.Minor), in the card's order. */
export function jsonRpcInterfaces(card: CardInterfaces): Array<{ version: string; url: string }> {
  const out: Array<{ version: string; url: string }> = [];
  for (const i of card.supportedInterfaces ?? []) {
    const version = majorMinor(i.protocolVersion);
    if (i.protocolBinding === 'JSONRPC' && version && typeof i.url === 'string')
      out.push({ version, url: i.url });
  }
  // A 0.3 card names its interfaces at its root (0.3 §5.6): the main one (JSONRPC when it says no transport), then
  // the others.
  const root = majorMinor(card.protocolVersion ?? (card.url === undefined ? undefined : '0.3'));
  if (root && typeof card.url === 'string' && (card.preferredTransport ?? 'JSONRPC') === 'JSONRPC')
    out.push({ version: root, url: card.url });
  for (const i of card.additionalInterfaces ?? [])
    if (root && i.transport === 'JSONRPC' && typeof i.url === 'string')
      out.push({ version: root, url: i.url });
  return out;
}

/** The methods of 1.0 that answer with a stream. */
const STREAMS = new Set(['SendStreamingMessage', 'SubscribeToTask']);

/**
 * Reads the agent card at `cardUrl` and returns a 1.0 JSON-RPC client for the best interface it declares: 1.0 if it
 * has one, else a version this package translates (0.3), newest first. Throws naming the versions the card offers when
 * none of them is spoken here.
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
  let card: CardInterfaces;
  try {
    card = JSON.parse(new TextDecoder().decode(read.bytes)) as CardInterfaces;
  } catch (error) {
    throw new Error(`${cardUrl}: the card is not JSON (${(error as Error).message})`);
  }
  const offered = jsonRpcInterfaces(card);
  const spoken = [A2A_PROTOCOL_VERSION, ...Object.keys(TRANSLATIONS)];
  const pick = spoken.map((v) => offered.find((i) => i.version === v)).find((i) => i !== undefined);
  if (!pick)
    throw new Error(
      `${cardUrl}: the card offers JSON-RPC for ${[...new Set(offered.map((i) => i.version))].join(', ') || 'no version'}; this client speaks ${spoken.join(', ')}`,
    );
  if (pick.version === A2A_PROTOCOL_VERSION)
    return {
      version: pick.version,
      url: pick.url,
      client: createA2aRpcClient({
        ...options,
        url: pick.url,
        headers: { ...options.headers, 'A2A-Version': A2A_PROTOCOL_VERSION },
      }),
    };
  const { translator } = TRANSLATIONS[pick.version as keyof typeof TRANSLATIONS];
  const rpc = new RpcCaller({ ...options, url: pick.url });
  const methods = translateClient(translator, rpc as unknown as TranslatedCaller, STREAMS);
  // The same shape as the generated 1.0 client: each 1.0 method, with 1.0's types, over the older wire.
  return { version: pick.version, url: pick.url, client: { rpc, ...methods } as unknown as A2aRpcClient };
}
