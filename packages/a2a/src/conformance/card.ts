// Discovery (specification §8.2, §8.3.1, §5.2): the agent card is served at its well-known path and declares the
// interfaces, by binding and protocol version, the rest of the suite then drives.
import { CheckFailure, expectBody, type SuiteContext } from '@agentproto/runtime/documents';
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

/**
 * Reads the card; returns the path of each binding it declares for the suite's version (the first interface of each),
 * by binding.
 */
export async function cardChecks(
  { session, check, requirePassed }: SuiteContext,
  { version }: Speaking,
): Promise<Map<string, string>> {
  const declared = new Map<string, string>();
  await check('a2a.card', async () => {
    const x = await session.call('GET', '/.well-known/agent-card.json', { expect: { 200: 'AgentCard' } });
    const card = expectBody<{ supportedInterfaces?: AgentInterface[] }>(x);
    for (const i of card.supportedInterfaces ?? [])
      if (
        i.protocolVersion === version &&
        (i.protocolBinding === 'JSONRPC' || i.protocolBinding === 'HTTP+JSON') &&
        !declared.has(i.protocolBinding)
      )
        declared.set(i.protocolBinding, pathOf(i.url));
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
