// One agent card for every version served (specification 1.0 §8.3.1 lists interfaces by protocol version; 0.3 §5.5
// reads `url`, `preferredTransport`, `additionalInterfaces` and `protocolVersion` at the card's root). The card stays
// a 1.0 card, with the 0.3 fields written beside from its 0.3 interfaces, so a reader of either version finds its own
// fields, and each ignores the other's (both keep cards open to unknown fields).
import type { AgentCard } from '../generated/1.0/index.js';
import { isVersion } from '../generated/versions.js';
import { isObjectLike } from '../is-object-like.js';
import { majorMinor, VERSION_TRAITS } from '../version-data.js';

/** The version an interface is of, when it is one whose readers look at the card's root (the trait says which). */
const rootVersionOf = (protocolVersion: string): string | undefined => {
  const version = majorMinor(protocolVersion);
  return isVersion(version) && VERSION_TRAITS[version].cardRootInterfaces ? version : undefined;
};

/**
 * The card with 0.3's root fields, from its interfaces whose protocolVersion is 0.3 (a version whose trait
 * `cardRootInterfaces` is true; the first such version the card lists, should there be several); without such an
 * interface, the card as it is. Security schemes keep 1.0's form, with 0.3's written beside in the same object (0.3
 * names its kind by `type`, 1.0 by a key of its own: each reader finds its own), and the requirements are written as
 * 0.3's `security` too; an OAuth 2.0 scheme stays 1.0's only (schemas/a2a/DECISIONS.md says so).
 */
export function cardForEveryVersion(card: AgentCard): AgentCard {
  const interfaces = card.supportedInterfaces ?? [];
  const root = interfaces.map((i) => rootVersionOf(i.protocolVersion)).find((v) => v !== undefined);
  const legacy = interfaces.filter((i) => root !== undefined && rootVersionOf(i.protocolVersion) === root);
  const [primary] = legacy;
  if (!primary) return card;
  const extended = card.capabilities?.extendedAgentCard;
  return {
    ...card,
    protocolVersion: primary.protocolVersion,
    url: primary.url,
    preferredTransport: primary.protocolBinding,
    // Every interface, the main one included: 0.3 §5.6.2, "SHOULD include all supported transports, including the
    // main URL's transport for completeness".
    ...(legacy.length > 1
      ? { additionalInterfaces: legacy.map((i) => ({ url: i.url, transport: i.protocolBinding })) }
      : {}),
    ...(extended === undefined ? {} : { supportsAuthenticatedExtendedCard: extended }),
    ...(card.securitySchemes ? { securitySchemes: legacySchemes(card.securitySchemes) } : {}),
    ...(card.securityRequirements
      ? {
          security: card.securityRequirements.map((r) =>
            Object.fromEntries(
              Object.entries(r.schemes ?? {}).map(([name, scopes]) => [name, scopes.list ?? []]),
            ),
          ),
        }
      : {}),
  };
}

type Schemes = NonNullable<AgentCard['securitySchemes']>;

/** Each scheme with 0.3's fields beside 1.0's (0.3 §5.5's SecurityScheme: `type` and the kind's own fields). */
function legacySchemes(schemes: Schemes): Schemes {
  const out: Schemes = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    const kind = (key: string) => {
      const value: unknown = isObjectLike(scheme) ? scheme[key] : undefined;
      return isObjectLike(value) ? value : undefined;
    };
    const http = kind('httpAuthSecurityScheme');
    const apiKey = kind('apiKeySecurityScheme');
    const oidc = kind('openIdConnectSecurityScheme');
    const mtls = kind('mtlsSecurityScheme');
    const legacy = http
      ? { type: 'http', ...http }
      : apiKey
        ? {
            type: 'apiKey',
            name: apiKey.name,
            in: apiKey.location,
            ...(apiKey.description === undefined ? {} : { description: apiKey.description }),
          }
        : oidc
          ? { type: 'openIdConnect', ...oidc }
          : mtls
            ? { type: 'mutualTLS', ...mtls }
            : {};
    out[name] = { ...legacy, ...scheme };
  }
  return out;
}
