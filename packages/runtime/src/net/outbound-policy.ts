// Where a server may send requests that its clients name (webhooks, callbacks): not into its own network. A URL is
// refused when it is not http or https, carries credentials, or names a host that is, or resolves to, a loopback,
// private, link-local, unique-local, metadata or otherwise non-public address; an allow-list opens hosts by name, as
// the URL spells them. The same rule is applied twice: when the URL is given (`checkOutboundUrl`, every address the
// name resolves to) and when the connection is made (`guardedLookup`, the addresses the socket is handed), so a name
// that resolves to a public address first and to 127.0.0.1 later (DNS rebinding) is refused when it matters.
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Why an address is not public, in the words errors use. */
export type BlockedAddressKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'metadata'
  | 'unique-local'
  | 'multicast'
  | 'reserved';

// Each kind's ranges (IANA's IPv4 and IPv6 special-purpose registries, RFC 6890; the cloud metadata addresses).
// Metadata comes first, so its addresses are named as such rather than by the wider range they sit in.
const RANGES: ReadonlyArray<[BlockedAddressKind, 'ipv4' | 'ipv6', string, number]> = [
  ['metadata', 'ipv4', '169.254.169.254', 32], // AWS, GCP, Azure, OpenStack
  ['metadata', 'ipv4', '100.100.100.200', 32], // Alibaba Cloud
  ['metadata', 'ipv6', 'fd00:ec2::254', 128], // AWS over IPv6
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['shared', 'ipv4', '100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['reserved', 'ipv4', '192.0.0.0', 24], // IETF protocol assignments
  ['reserved', 'ipv4', '198.18.0.0', 15], // benchmarking
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['reserved', 'ipv4', '240.0.0.0', 4], // and the broadcast address
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv6', '::1', 128],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['reserved', 'ipv6', 'fec0::', 10], // site-local, deprecated
  ['unique-local', 'ipv6', 'fc00::', 7],
  ['multicast', 'ipv6', 'ff00::', 8],
  ['reserved', 'ipv6', '64:ff9b::', 96], // NAT64: reaches IPv4 addresses, private ones included
  ['reserved', 'ipv6', '100::', 64], // discard
];

const LISTS: ReadonlyArray<[BlockedAddressKind, BlockList]> = RANGES.map(
  ([kind, family, address, prefix]) => {
    const list = new BlockList();
    list.addSubnet(address, prefix, family);
    return [kind, list];
  },
);

/**
 * Why an IP address is not public (IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry), or
 * undefined for a public one. A string that is no IP address is `reserved`: nothing can be connected to there.
 */
export function blockedAddressKind(address: string): BlockedAddressKind | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [kind, list] of LISTS) if (list.check(bare, type)) return kind;
  return undefined;
}

/** Resolves a host name to every address it has (the default: the system resolver, as connections use it). */
export type HostResolver = (host: string) => Promise<string[]>;

/** Where outbound requests may go. */
export interface OutboundPolicy {
  /**
   * Hosts requests may go to whatever they resolve to, as the URL spells them (`127.0.0.1`, `[::1]`,
   * `hooks.internal`), compared without case. An IP address here opens that literal only, not names resolving to it.
   */
  allowHosts?: readonly string[];
  /** Resolves names when a URL is checked (default: the system resolver). */
  resolve?: HostResolver;
  /** The lookup a connection uses, before the policy filters its answer (default: `dns.lookup`). */
  lookup?: LookupFunction;
}

/** A URL the policy refuses, and why, in one line. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
}

/** The URL's host as the allow-list compares it: lower case, an IPv6 address without brackets. */
const hostKey = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, '');

/** Whether the policy's allow-list opens the URL's host. */
export function isAllowedHost(url: Pick<URL, 'hostname'>, policy: OutboundPolicy = {}): boolean {
  const host = hostKey(url.hostname);
  return (policy.allowHosts ?? []).some((h) => hostKey(h) === host);
}

const systemResolve: HostResolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );

/**
 * The URL, parsed, when the policy lets requests go there: http or https, no user name or password, and a host that
 * is allowed by name or whose every address is public (a name is resolved). Throws OutboundRefusedError otherwise.
 */
export async function checkOutboundUrl(
  text: string,
  policy: OutboundPolicy = {},
  /** Whether a name is resolved and its addresses checked (default); without, only the URL itself is. */
  resolveNames = true,
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundRefusedError(`${JSON.stringify(text)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRefusedError(`only http and https URLs are taken, not ${url.protocol.slice(0, -1)}`);
  if (url.username !== '' || url.password !== '')
    throw new OutboundRefusedError('the URL carries a user name or password; credentials go elsewhere');
  if (isAllowedHost(url, policy)) return url;
  const host = hostKey(url.hostname);
  if (isIP(host) !== 0) {
    const kind = blockedAddressKind(host);
    if (kind) throw refusal(url.hostname, host, kind);
    return url;
  }
  // `localhost` and its subdomains are loopback whatever a resolver says (RFC 6761 §6.3).
  if (host === 'localhost' || host.endsWith('.localhost'))
    throw new OutboundRefusedError(`${url.hostname} is a loopback name; allow the host to send there`);
  if (!resolveNames) return url;
  let addresses: string[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(host);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'no answer';
    throw new OutboundRefusedError(`${url.hostname} does not resolve (${code})`);
  }
  if (addresses.length === 0) throw new OutboundRefusedError(`${url.hostname} resolves to no address`);
  for (const address of addresses) {
    const kind = blockedAddressKind(address);
    if (kind) throw refusal(url.hostname, address, kind);
  }
  return url;
}

function refusal(host: string, address: string, kind: BlockedAddressKind): OutboundRefusedError {
  const at = hostKey(host) === address ? host : `${host} (${address})`;
  return new OutboundRefusedError(`${at} is a ${kind} address; allow the host to send there`);
}

/**
 * A `lookup` for node:http, node:https and node:net connections that hands the socket only public addresses: a name
 * whose addresses are all non-public fails the connection with OutboundRefusedError. Pass it for hosts the allow-list
 * does not open. (An IP address in the URL is connected to without a lookup: check it with `checkOutboundUrl`.)
 */
export function guardedLookup(policy: OutboundPolicy = {}): LookupFunction {
  const base: LookupFunction = policy.lookup ?? dnsLookup;
  return (hostname, options, callback) => {
    const all: LookupAllOptions = { ...options, all: true };
    base(hostname, all, (error, found, family) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const addresses: LookupAddress[] = Array.isArray(found)
        ? found
        : [{ address: found, family: family ?? isIP(found) }];
      const open = addresses.filter((a) => blockedAddressKind(a.address) === undefined);
      const first = open[0];
      if (!first) {
        const shut = addresses[0];
        const kind = shut ? blockedAddressKind(shut.address) : undefined;
        callback(
          shut && kind
            ? refusal(hostname, shut.address, kind)
            : new OutboundRefusedError(`${hostname} resolves to no address`),
          '',
          0,
        );
        return;
      }
      // sound: node calls lookup with `all: true` when it wants every address (autoSelectFamily) and then reads the
      // second argument as LookupAddress[]; otherwise it reads one address and its family.
      if (options.all) (callback as (e: null, a: LookupAddress[]) => void)(null, open);
      else callback(null, first.address, first.family);
    });
  };
}
