// The extended agent card (specification §3.1.11, §13.3), for an agent whose card declares
// `capabilities.extendedAgentCard`: GetExtendedAgentCard MUST require authentication, so a request with a bearer token
// the agent cannot know is refused as an authentication error (§3.3.2: HTTP 401, which carries a WWW-Authenticate
// challenge, RFC 9110 §15.5.2); and with the credentials the kit was given (`--header 'Authorization: …'`) the answer
// is a valid AgentCard. Without such credentials the second check is skipped, saying how to give them.
import { CheckFailure, CheckSkipped } from '@agentproto/runtime/contract';
import { isObjectLike } from '../is-object-like.js';
import { type BindingChecks, type BindingSpec, SPEC } from './bindings.js';

/** A bearer token no agent gave out: the kit's request with it must be refused. */
export const WRONG_TOKEN = 'agentproto-conformance-not-a-token';
/** Why the checks are skipped for an agent that offers no extended card. */
const NO_EXTENDED = 'the card claims no extended agent card (capabilities.extendedAgentCard)';

/** The extended card's checks of one binding. */
export const extendedCardDefinitions = ({ prefix, name }: BindingSpec) => [
  {
    id: `a2a.${prefix}.extended-card-auth`,
    level: 'MUST' as const,
    title: `${name}: GetExtendedAgentCard with a wrong bearer token is refused with 401 and a WWW-Authenticate challenge`,
    ref: `${SPEC} §3.1.11, §3.3.2, §13.3; RFC 9110 §15.5.2`,
    covers: ['card.extended.auth'],
  },
  {
    id: `a2a.${prefix}.extended-card`,
    level: 'MUST' as const,
    title: `${name}: GetExtendedAgentCard with the kit's credentials (--header) answers a valid AgentCard`,
    ref: `${SPEC} §3.1.11`,
    covers: ['card.extended'],
  },
];

/** The extended card's checks over one binding; `offered` is whether the card declares the capability. */
export async function extendedCardChecks(on: BindingChecks, offered: boolean): Promise<void> {
  await on.check('extended-card-auth', async (b) => {
    if (!offered) throw new CheckSkipped(NO_EXTENDED);
    const x = await b.call(
      'GetExtendedAgentCard',
      {},
      { ...b.speaking.headers, authorization: `Bearer ${WRONG_TOKEN}` },
    );
    if (x.status !== 401) {
      const gave = isObjectLike(x.body) && isObjectLike(x.body.result) ? ' (it gave the card)' : '';
      throw new CheckFailure(
        `${x.label} with a wrong bearer token answered ${x.status}${gave}, expected 401: the extended card needs authentication`,
      );
    }
    const challenge = x.headers.get('www-authenticate');
    if (!challenge)
      throw new CheckFailure(`${x.label}: the 401 carries no WWW-Authenticate challenge (RFC 9110 §15.5.2)`);
    return `401, WWW-Authenticate: ${challenge}`;
  });
  await on.check('extended-card', async (b) => {
    if (!offered) throw new CheckSkipped(NO_EXTENDED);
    const x = await b.call('GetExtendedAgentCard', {});
    if (x.status === 401 || x.status === 403)
      throw new CheckSkipped(
        `the agent asks for credentials (${x.status}): give them with --header 'Authorization: Bearer <token>'`,
      );
    const card = b.result<{ name?: string; skills?: unknown[] }>(x);
    return `the extended card of ${JSON.stringify(card.name)}, ${card.skills?.length ?? 0} skills`;
  });
}
