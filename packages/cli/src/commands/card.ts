// `agentproto card sign` and `agentproto card verify`: A2A 1.0 agent card signatures (specification §8.4), a JWS over
// the card's RFC 8785 canonical form. Keys are JWK files (a JWK Set, or its URL, to verify); a private key is read to
// sign and never printed.
import { readFile, writeFile } from 'node:fs/promises';
import { knownProtocols } from '@agentproto/registry';
import { printable } from '@agentproto/runtime/contract';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { Output } from '../output.js';

/** A JWK, as the signing module reads it. */
type Jwk = Record<string, unknown>;
/** The keys a card is verified with: one JWK, a JWK Set, or the URL of one. */
type CardVerificationKeys = Jwk | { keys: Jwk[] } | URL;

/**
 * What the CLI uses of a protocol package's card-signing module (`<package>/card-signing`). The CLI names no
 * protocol: it asks every package the registry lists for that module and uses the one that has it.
 */
interface CardSigning {
  parseKeys(text: string, source?: string): Jwk | { keys: Jwk[] };
  cardSigner(key: Jwk, options?: { kid?: string; jku?: string }): Promise<(card: never) => Promise<unknown>>;
  verifyAgentCard(
    card: unknown,
    keys: CardVerificationKeys,
  ): Promise<{
    valid: boolean;
    signatures: Array<{ index: number; kid?: string; alg?: string; valid: boolean; reason?: string }>;
    uncovered: string[];
  }>;
}

/** The card-signing module of the first protocol package that ships one; none installed is a usage error. */
async function cardSigning(): Promise<CardSigning> {
  for (const { package: pkg } of knownProtocols()) {
    const found: unknown = await import(`${pkg}/card-signing`).catch(() => undefined);
    if (typeof found === 'object' && found !== null && 'cardSigner' in found && 'verifyAgentCard' in found)
      // sound: the module exports the functions the CLI calls, checked by name just above; their signatures are the
      // ones CardSigning states (the package's own tests hold them to it).
      return found as CardSigning;
  }
  throw new UsageError('no installed protocol package signs agent cards');
}

/** The errors a card-signing module throws for a bad key or a card of the wrong shape: the input's fault. */
const BAD_INPUT = new Set(['CardKeyError', 'CardShapeError']);

/** Options of `card sign`. */
export interface CardSignOptions {
  key: string;
  kid?: string;
  jku?: string;
  out?: string;
}

/** Options of `card verify`. */
export interface CardVerifyOptions {
  key: string;
}

/** Reads a JSON file (or `-`, standard input) that must be an object: the card. */
async function readCard(file: string, io: Output): Promise<Record<string, unknown>> {
  let text: string;
  if (file === '-') {
    text = '';
    for await (const chunk of io.stdin())
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
  } else {
    text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(
        `cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
      );
    });
  }
  let card: unknown;
  try {
    card = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${error instanceof Error ? error.message : error}`);
  }
  if (typeof card !== 'object' || card === null || Array.isArray(card))
    throw new UsageError(`${file} is not an agent card (a JSON object)`);
  // sound: a JSON object, checked just above
  return card as Record<string, unknown>;
}

/** A key file's text; its content never appears in an error. */
async function readKeyFile(file: string): Promise<string> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cannot read the key ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.code}`,
    );
  });
}

/** The JWK Set at `url`, fetched once (10 s at most); unreachable or not a key set is a usage error. */
async function fetchKeySet(url: string): Promise<CardVerificationKeys> {
  const answer = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'follow' }).catch(
    (error: unknown) => {
      const cause =
        error instanceof Error ? (error.cause instanceof Error ? error.cause : error).message : error;
      throw new UsageError(`cannot fetch the key set ${url}: ${cause}`);
    },
  );
  if (!answer.ok) throw new UsageError(`cannot fetch the key set ${url}: HTTP ${answer.status}`);
  const { parseKeys } = await cardSigning();
  return usageOnBadInput(async () => parseKeys(await answer.text(), `the key set at ${url}`));
}

/** Runs `fn`, turning a key or card-shape problem into a usage error (exit 2, one line). */
async function usageOnBadInput<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof Error && BAD_INPUT.has(error.name)) throw new UsageError(error.message);
    throw error;
  }
}

/** `agentproto card sign <card.json> --key <private.jwk>`: writes the card with one more signature. */
export async function cardSignCommand(file: string, opts: CardSignOptions, io: Output): Promise<number> {
  const card = await readCard(file, io);
  const { parseKeys, cardSigner } = await cardSigning();
  const keys = await usageOnBadInput(async () =>
    parseKeys(await readKeyFile(opts.key), `the key ${opts.key}`),
  );
  if ('keys' in keys) throw new UsageError(`the key ${opts.key} is a JWK Set: signing takes one private JWK`);
  const signed = await usageOnBadInput(async () => {
    const sign = await cardSigner(keys, {
      ...(opts.kid ? { kid: opts.kid } : {}),
      ...(opts.jku ? { jku: opts.jku } : {}),
    });
    // sound: an object card; the signer reads it through the proto's fields and refuses a field of the wrong type
    return sign(card as never);
  });
  const text = `${JSON.stringify(signed, null, 2)}\n`;
  if (opts.out) {
    await writeFile(opts.out, text);
    io.err(`signed ${file} → ${opts.out}`);
  } else io.out(text.trimEnd());
  return ExitCode.ok;
}

/** `agentproto card verify <card.json> --key <public.jwk | jwks-url>`: 0 when a signature verifies, 1 when none does. */
export async function cardVerifyCommand(file: string, opts: CardVerifyOptions, io: Output): Promise<number> {
  const card = await readCard(file, io);
  const { parseKeys, verifyAgentCard } = await cardSigning();
  const keys: CardVerificationKeys = /^https?:\/\//i.test(opts.key)
    ? await fetchKeySet(opts.key)
    : await usageOnBadInput(async () => parseKeys(await readKeyFile(opts.key), `the key ${opts.key}`));
  if (!Array.isArray(card.signatures) || card.signatures.length === 0) {
    io.out(`${file}: invalid: the card has no signatures`);
    return ExitCode.invalid;
  }
  const result = await usageOnBadInput(() => verifyAgentCard(card, keys));
  for (const v of result.signatures) {
    const who = [v.kid ? `kid ${v.kid}` : '', v.alg ?? ''].filter(Boolean).join(', ');
    io.out(
      `  signature ${v.index + 1}${who ? ` (${printable(who)})` : ''}: ${v.valid ? 'valid' : `invalid: ${printable(v.reason ?? '')}`}`,
    );
  }
  if (result.uncovered.length > 0)
    io.out(
      `  not covered by the signatures (not AgentCard fields): ${printable(result.uncovered.join(', '))}`,
    );
  const verified = result.signatures.filter((v) => v.valid).length;
  io.out(
    `${file}: ${result.valid ? 'valid' : 'invalid'} (${verified} of ${result.signatures.length} signatures verify)`,
  );
  return result.valid ? ExitCode.ok : ExitCode.invalid;
}
