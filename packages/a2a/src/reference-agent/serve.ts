// Starts the A2A reference agent on 127.0.0.1:
// `pnpm --filter @agentproto/a2a start [-- --port 41241 --version 1.0 --store sqlite:./agent.db]`; with
// `--sign-card <private-jwk-file>` its card is signed (specification §8.4) and the public key published beside it;
// `--push-allow <host>` (repeatable) lets push notifications go to that webhook host although it is loopback or
// private (`--push-allow 127.0.0.1` for a receiver on this machine, as the conformance kit's push checks need);
// `--extended-card-token <token>` serves its extended card (§3.1.11) to requests carrying that bearer token.
// `agentproto serve a2a` starts the same agent through `referenceAgentFor`.

import { readFile } from 'node:fs/promises';
import {
  closeLocal,
  type LocalServer,
  openStore,
  type ReferenceAgent,
  ReferenceAgentOptionError,
  runServeScript,
  serveLocal,
} from '@agentproto/runtime';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { CardKeyError, cardSigner, parseKeys, publicJwk } from '../card-signing/index.js';
import { isVersion, LATEST, VERSIONS } from '../generated/versions.js';
import { NATIVE_VERSIONS, VERSION_WHEN_UNSAID } from '../version-data.js';
import { createReferenceAgent, type ReferenceOptions } from './reference-agent.js';

const DEFAULT_PORT = 41241;

/**
 * Serves the reference agent on 127.0.0.1; port 0 picks a free port. Resolves once it listens. With `signingKey` (a
 * private JWK) its card is signed, once, for the URL it listens at.
 */
export async function startReferenceAgent(
  port = DEFAULT_PORT,
  options: ReferenceOptions = {},
  signingKey?: JWK,
): Promise<LocalServer> {
  if (!signingKey) return serveLocal(createReferenceAgent(options).app.fetch, port);
  // --- Card signing: the card names the agent's URL, known once it listens; until it is signed, card asks wait. ---
  await cardSigner(signingKey); // a key it cannot sign with is refused before the port is taken
  let ready: (fetch: Fetch) => void = () => {};
  const app = new Promise<Fetch>((resolve) => {
    ready = resolve;
  });
  const local = await serveLocal(async (request) => (await app)(request), port);
  ready(await signedReferenceAgent(local.url, signingKey, options));
  return local;
}

type Fetch = (request: Request) => Response | Promise<Response>;

/** Where a reference agent with a signed card publishes the card's public key, as a JWK Set (its signature's `jku`). */
export const CARD_KEYS_PATH = '/.well-known/jwks.json';

/**
 * The reference agent with its card signed by `privateJwk` for `publicUrl` (specification §8.4), and the public half
 * of the key served at CARD_KEYS_PATH, which the signature names as its `jku`. Refuses a key it cannot sign with.
 */
export async function signedReferenceAgent(
  publicUrl: string,
  privateJwk: JWK,
  options: ReferenceOptions = {},
): Promise<Fetch> {
  const jku = `${publicUrl.replace(/\/$/, '')}${CARD_KEYS_PATH}`;
  const kid = privateJwk.kid ?? (await calculateJwkThumbprint(publicJwk(privateJwk)));
  const signCard = await cardSigner(privateJwk, { jku, kid });
  const keys = Response.json({ keys: [{ ...publicJwk(privateJwk), kid, use: 'sig' }] });
  const { app } = createReferenceAgent({ ...options, publicUrl, signCard });
  return (request) =>
    new URL(request.url).pathname === CARD_KEYS_PATH && request.method === 'GET'
      ? keys.clone()
      : app.fetch(request);
}

/** The private JWK in `file`, for `--sign-card`; a key that is not one is a one-line error. */
export async function readSigningKey(file: string): Promise<JWK> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CardKeyError(`cannot read ${file}: ${error.code ?? error.message}`);
  });
  const key = parseKeys(text, `the key ${file}`);
  if ('keys' in key)
    throw new CardKeyError(`the key ${file} is a JWK Set: --sign-card takes one private JWK`);
  await cardSigner(key);
  return key;
}
// --- end of card signing ---

/**
 * The reference agent, as `agentproto serve` starts it; a version it does not speak is refused. Its own options
 * (`--sign-card`, `--push-allow`) come as `values` to `start`, or, from its start script, as the arguments here.
 */
export function referenceAgentFor(
  version: string,
  givenKey?: JWK,
  givenAllow: readonly string[] = [],
  givenToken?: string,
): ReferenceAgent {
  // Every version the manifest lists (the agent behaves the same in each).
  if (!isVersion(version))
    throw new Error(`the A2A reference agent speaks ${VERSIONS.join(', ')}, not "${version}"`);
  return {
    agents: ['reference'],
    port: DEFAULT_PORT,
    keepsState: true,
    options: {
      'sign-card': {
        value: '<private-jwk-file>',
        description: `sign the card with this private JWK (ES256, EdDSA, …); its public key is served at ${CARD_KEYS_PATH}`,
      },
      'push-allow': {
        value: '<host>',
        description:
          'let push notifications go to this host too (loopback and private addresses are refused otherwise)',
        repeatable: true,
      },
      'extended-card-token': {
        value: '<token>',
        description:
          'serve the extended agent card to requests with "Authorization: Bearer <token>" (the card declares the scheme)',
      },
    },
    async start({ port, store, values }) {
      const keyFile = values?.['sign-card']?.[0];
      const signingKey = keyFile
        ? await readSigningKey(keyFile).catch((error: unknown) => {
            throw error instanceof CardKeyError
              ? new ReferenceAgentOptionError(`--sign-card: ${error.message}`)
              : error;
          })
        : givenKey;
      const pushAllow = [...givenAllow, ...(values?.['push-allow'] ?? [])];
      const token = values?.['extended-card-token']?.[0] ?? givenToken;
      if (token !== undefined && token.trim() === '')
        throw new ReferenceAgentOptionError('--extended-card-token: give a token that is not empty');
      const options: ReferenceOptions = {
        ...(store ? { store } : {}),
        ...(token === undefined ? {} : { extendedCardToken: token }),
        ...(pushAllow.length > 0 ? { push: { allowHosts: pushAllow } } : {}),
      };
      const local = await startReferenceAgent(port, options, signingKey);
      const { url } = local;
      return {
        url,
        banner: [
          `A2A reference agent listening on ${url}`,
          `  card:     ${url}/.well-known/agent-card.json`,
          `  JSON-RPC: ${url}/jsonrpc   HTTP+JSON: ${url}/ (send A2A-Version: ${NATIVE_VERSIONS.join(' or ')})`,
          `  A2A ${VERSION_WHEN_UNSAID}:  the same JSON-RPC endpoint without A2A-Version; HTTP+JSON under ${url}/v1/`,
          ...(signingKey ? [`  the card is signed; its public key: ${url}${CARD_KEYS_PATH}`] : []),
          ...(pushAllow.length > 0 ? [`  push notifications may also go to: ${pushAllow.join(', ')}`] : []),
          ...(token === undefined
            ? []
            : [`  extended card: ${url}/extendedAgentCard with Authorization: Bearer <the token given>`]),
        ].join('\n'),
        close: () => closeLocal(local),
      };
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runServeScript(
    // `--version` is accepted for every version the manifest lists, as the other reference agents take it; the agent
    // answers all of them whichever is named.
    {
      port: DEFAULT_PORT,
      strings: {
        version: { choices: VERSIONS },
        store: { value: '<spec>' },
        'sign-card': { value: '<private-jwk-file>' },
        'push-allow': { value: '<host>', repeatable: true },
        'extended-card-token': { value: '<token>' },
      },
    },
    async ({ port, strings, lists }) => {
      const keyFile = strings['sign-card'];
      const signingKey = keyFile
        ? await readSigningKey(keyFile).catch((error: unknown) => {
            if (!(error instanceof CardKeyError)) throw error;
            process.stderr.write(`serve.ts: ${error.message}\n`);
            process.exit(2);
          })
        : undefined;
      const spec = strings.store ?? process.env.AGENT_STORE;
      const store = spec ? await openStore(spec) : undefined;
      const agent = referenceAgentFor(
        strings.version ?? LATEST,
        signingKey,
        lists['push-allow'],
        strings['extended-card-token'],
      );
      return (await agent.start({ port, ...(store ? { store } : {}) })).banner;
    },
  );
}
