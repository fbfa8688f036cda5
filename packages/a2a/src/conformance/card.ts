// Discovery (specification §8.2, §8.3.1, §5.2): the agent card is served at its well-known path and declares the
// interfaces, by binding and protocol version, the rest of the suite then drives.
import { CheckFailure, expectBody, type SuiteContext } from '@agentproto/runtime/contract';
import { majorMinor, VERSION_TRAITS } from '../version-data.js';
import { SPEC, type Speaking } from './bindings.js';

/** The card's checks. */
export const cardDefinitions = ({ version }: Speaking) => [
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

/**
 * Reads the card; returns the path of each binding it declares for the suite's version (the first interface of each),
 * by binding.
 */
export async function cardChecks(
  { session, check, requirePassed }: SuiteContext,
  { version, cardRootInterfaces }: Speaking,
): Promise<Map<string, string>> {
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
  return declared;
}

/** The path of an interface URL, tried against the agent the kit was pointed at (its host may be a public name). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/$/, '') || '';
  } catch {
    return '';
  }
}
