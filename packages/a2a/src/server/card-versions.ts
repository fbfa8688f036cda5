// One agent card for every version served (specification 1.0 §8.3.1 lists interfaces by protocol version; 0.3 §5.5
// reads `url`, `preferredTransport`, `additionalInterfaces` and `protocolVersion` at the card's root). The card stays
// a 1.0 card, with the 0.3 fields written beside from its 0.3 interfaces, so a reader of either version finds its own
// fields, and each ignores the other's (both keep cards open to unknown fields).
import type { AgentCard } from '../generated/1.0/index.js';

/** The protocolVersion of the interfaces a 0.3 reader uses (as @a2a-js/sdk spells it). */
const V03 = '0.3';

/**
 * The card with 0.3's root fields, from its interfaces whose protocolVersion is 0.3; without such an interface, the
 * card as it is. A card with security schemes keeps 1.0's form of them (0.3 spells them differently in the same
 * field; schemas/a2a/DECISIONS.md says so).
 */
export function cardForEveryVersion(card: AgentCard): AgentCard {
  const legacy = (card.supportedInterfaces ?? []).filter(
    (i) => i.protocolVersion.split('.').slice(0, 2).join('.') === V03,
  );
  const [primary, ...others] = legacy;
  if (!primary) return card;
  const extended = card.capabilities?.extendedAgentCard;
  return {
    ...card,
    protocolVersion: primary.protocolVersion,
    url: primary.url,
    preferredTransport: primary.protocolBinding,
    ...(others.length > 0
      ? { additionalInterfaces: others.map((i) => ({ url: i.url, transport: i.protocolBinding })) }
      : {}),
    ...(extended === undefined ? {} : { supportsAuthenticatedExtendedCard: extended }),
  } as AgentCard;
}
