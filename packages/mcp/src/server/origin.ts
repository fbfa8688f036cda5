// DNS-rebinding protection, on by default as the specification asks of local servers: a request whose `Host` is not
// a name this server answers to, or whose `Origin` is a web page elsewhere, is refused (403) before anything runs.

/** Which hosts and origins a server accepts. */
export interface OriginPolicy {
  /**
   * Host names (without port) the server answers to; `'*'` takes any. Default: the loopback names, which is right
   * for a server bound to 127.0.0.1; list the public name when serving beyond this machine.
   */
  allowedHosts: readonly string[] | '*';
  /**
   * Origins (`https://app.example`) whose pages may call the server; `'*'` takes any. Requests without `Origin` (from
   * programs, not browsers) are always taken. Default: pages served from a loopback address.
   */
  allowedOrigins: readonly string[] | '*';
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Why a request is refused, or undefined when its Host and Origin are acceptable. A request without a `Host` header
 * was made in memory (HTTP/1.1 requires the header, and every browser sends it), so only its Origin is checked.
 */
export function refuseForeign(request: Request, policy: Partial<OriginPolicy> = {}): string | undefined {
  const headers = request.headers;
  const hosts = policy.allowedHosts ?? LOOPBACK;
  const host = headers.get('host');
  if (host !== null && hosts !== '*' && !hosts.includes(hostName(host)))
    return `Host "${host}" is not one this server answers to`;
  const origin = headers.get('origin');
  if (origin === null) return undefined;
  const origins = policy.allowedOrigins;
  if (origins === '*') return undefined;
  if (origins === undefined) {
    let name: string;
    try {
      name = new URL(origin).hostname;
    } catch {
      return `Origin "${origin}" is not a URL`;
    }
    return LOOPBACK.includes(name) ? undefined : `Origin "${origin}" may not call this server`;
  }
  return origins.includes(origin) ? undefined : `Origin "${origin}" may not call this server`;
}

/** The host name of a Host header (`127.0.0.1:3000` → `127.0.0.1`, `[::1]:80` → `[::1]`). */
function hostName(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.split(':')[0] ?? '';
}
