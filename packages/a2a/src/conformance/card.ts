// Discovery (specification §8.2, §8.3.1, §5.2): the agent card is served at its well-known path and declares the
// interfaces, by binding and protocol version, the rest of the suite then drives.
import { CheckFailure, CheckSkipped, expectBody, type SuiteContext } from '@agentproto/runtime/contract';
import { decodeProtectedHeader } from 'jose';
import { CardKeyError, parseKeys, verifyAgentCard } from '../card-signing/index.js';
import { isObjectLike } from '../is-object-like.js';
import { majorMinor, VERSION_TRAITS } from '../version-data.js';
import { SPEC, type Speaking } from './bindings.js';

/** The card's checks. */
export const cardDefinitions = ({ version, translator }: Speaking) => [
  {
    id: 'a2a.card',
    level: 'MUST' as const,
    title: 'the agent card is served at /.well-known/agent-card.json',
    ref: `${SPEC} §8.2`,
    covers: ['card.served'],
  },
  {
    id: 'a2a.card.interfaces',
    level: 'MUST' as const,
    title: `the card declares a JSONRPC or HTTP+JSON interface for ${version}`,
    ref: `${SPEC} §8.3.1, §5.2`,
    covers: ['card.interfaces'],
  },
  // A version served through a translation reads the same card; its signatures are the native version's to check.
  ...(translator
    ? []
    : [
        {
          id: 'a2a.card.signatures',
          level: 'MUST' as const,
          title:
            "a signed card's signatures name alg, kid and typ, and verify with the key set their jku names",
          ref: `${SPEC} §8.4`,
          covers: ['card.signatures'],
        },
      ]),
];

interface AgentInterface {
  url: string;
  protocolBinding: string;
  protocolVersion: string;
}

/** How a 0.3 card names its interfaces, at its root. */
interface RootInterfaces {
  protocolVersion?: string;
  url?: string;
  preferredTransport?: string;
  additionalInterfaces?: Array<{ url: string; transport: string }>;
}

/** What the card told the suite: where each binding is, and whether it offers an extended card. */
export interface CardFacts {
  /** The path of each binding the card declares for the suite's version (the first interface of each), by binding. */
  declared: Map<string, string>;
  /** Whether the card declares `capabilities.extendedAgentCard` (§3.1.11). */
  extendedCard: boolean;
}

/** Reads the card; returns what the other checks need of it. */
export async function cardChecks(
  { session, check, requirePassed }: SuiteContext,
  { version, cardRootInterfaces, translator }: Speaking,
): Promise<CardFacts> {
  let served: unknown;
  const declared = new Map<string, string>();
  // `Major.Minor` is the version; a patch number (`0.3.0`) is ignored, as §3.6.2 says of the header.
  const sameVersion = (v: unknown) => typeof v === 'string' && majorMinor(v) === version;
  const declare = (binding: string, url: string) => {
    if ((binding === 'JSONRPC' || binding === 'HTTP+JSON') && !declared.has(binding))
      declared.set(binding, pathOf(url));
  };
  await check('a2a.card', async () => {
    const x = await session.call('GET', '/.well-known/agent-card.json', { expect: { 200: 'AgentCard' } });
    const card = expectBody<RootInterfaces & { supportedInterfaces?: AgentInterface[] }>(x);
    served = card;
    for (const i of card.supportedInterfaces ?? [])
      if (sameVersion(i.protocolVersion)) declare(i.protocolBinding, i.url);
    // 0.3 names its interfaces at the card's root: the main one, then the others.
    // A root `url` without a `protocolVersion` is the unsaid version's (0.3's cards default it to 0.3.0).
    const rootVersion = card.protocolVersion ?? VERSION_TRAITS[version].versionWhenUnsaid;
    if (cardRootInterfaces && sameVersion(rootVersion) && typeof card.url === 'string') {
      declare(card.preferredTransport ?? 'JSONRPC', card.url);
      for (const i of card.additionalInterfaces ?? []) declare(i.transport, i.url);
    }
    return (
      [...declared].map(([binding, path]) => `${binding} at ${path}`).join(', ') || `no ${version} interface`
    );
  });
  await check('a2a.card.interfaces', async () => {
    requirePassed('a2a.card');
    if (declared.size === 0)
      throw new CheckFailure(
        `the card declares no JSONRPC or HTTP+JSON interface with protocolVersion "${version}"`,
      );
    return undefined;
  });
  if (!translator)
    await check('a2a.card.signatures', async () => {
      requirePassed('a2a.card');
      return signatureChecks(session, served);
    });
  const capabilities = isObjectLike(served) ? served.capabilities : undefined;
  return { declared, extendedCard: isObjectLike(capabilities) && capabilities.extendedAgentCard === true };
}

/**
 * A signed card's signatures (§8.4.2, §8.4.3): each protected header names `alg`, `kid` and `typ`; a signature whose
 * `jku` is on the agent's own host (the host of one of its interfaces) must verify with the key set fetched there. A
 * key set elsewhere is not fetched: the kit talks to the agent only, and whom to trust is the client's to decide.
 */
async function signatureChecks(session: SuiteContext['session'], card: unknown): Promise<string> {
  const signatures = isObjectLike(card) && Array.isArray(card.signatures) ? card.signatures : [];
  if (!isObjectLike(card) || signatures.length === 0) throw new CheckSkipped('the card claims no signature');
  const origins = new Set(
    (Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []).map((i) =>
      isObjectLike(i) && typeof i.url === 'string' ? originOf(i.url) : undefined,
    ),
  );
  const notes: string[] = [];
  for (const [i, entry] of signatures.entries()) {
    const n = `signature ${i + 1}`;
    let header: Record<string, unknown>;
    try {
      if (!isObjectLike(entry) || typeof entry.protected !== 'string') throw new Error();
      header = decodeProtectedHeader({ protected: entry.protected });
    } catch {
      throw new CheckFailure(`${n}: "protected" is not a base64url-encoded JSON header`);
    }
    const missing = ['alg', 'kid', 'typ'].filter((name) => typeof header[name] !== 'string');
    if (missing.length > 0) throw new CheckFailure(`${n}: its protected header has no ${missing.join(', ')}`);
    const jku = typeof header.jku === 'string' ? header.jku : undefined;
    const origin = jku === undefined ? undefined : originOf(jku);
    if (jku === undefined || origin === undefined || !origins.has(origin)) {
      notes.push(
        `${n} not verified: ${jku === undefined ? 'no jku' : `its key set is on another host (${jku})`}`,
      );
      continue;
    }
    const path = jku.slice(origin.length) || '/';
    const x = await session.call('GET', path);
    if (x.status !== 200) throw new CheckFailure(`${n}: its key set, GET ${path}, answered ${x.status}`);
    let keys: ReturnType<typeof parseKeys>;
    try {
      keys = parseKeys(x.text, `the key set at ${path}`);
    } catch (error) {
      throw new CheckFailure(`${n}: ${error instanceof CardKeyError ? error.message : String(error)}`);
    }
    const one = { ...card, signatures: [entry] };
    const [verdict] = (await verifyAgentCard(one, 'keys' in keys ? keys : { keys: [keys] })).signatures;
    if (!verdict?.valid)
      throw new CheckFailure(
        `${n} (kid ${String(header.kid)}) does not verify with ${path}: ${verdict?.reason}`,
      );
    notes.push(`${n} (${String(header.alg)}, kid ${String(header.kid)}) verifies with ${path}`);
  }
  return notes.join('; ');
}

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** The path of an interface URL, tried against the agent the kit was pointed at (its host may be a public name). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/$/, '') || '';
  } catch {
    return '';
  }
}
