// A2A 1.0's tenants: one endpoint serving several (the proto's `/{tenant}/…` bindings of every HTTP+JSON operation,
// and the `tenant` field of each request message). What a tenant may be named, which names the router keeps for its
// own paths (a path both readings fit is the one without a tenant).
import { InvalidParamsError } from '../errors/a2a-error.js';

/** The most characters a tenant may have (DECISIONS 115). */
export const TENANT_MAX_LENGTH = 128;

/** The characters of a tenant: RFC 3986's unreserved ones, so a tenant is one path segment as it is written. */
const TENANT_CHARS = /^[A-Za-z0-9._~-]+$/;

/**
 * The tenant a request names, checked: undefined (or '') is the default tenant, anything else must be 1 to 128
 * unreserved characters and no name the router keeps (`reserved`). Throws InvalidParamsError naming `tenant`.
 */
export function checkTenant(tenant: unknown, reserved: ReadonlySet<string>): string | undefined {
  if (tenant === undefined || tenant === '') return undefined;
  if (typeof tenant !== 'string') throw new InvalidParamsError('tenant', 'must be a string');
  if (tenant.length > TENANT_MAX_LENGTH)
    throw new InvalidParamsError(
      'tenant',
      `has ${tenant.length} characters, more than the ${TENANT_MAX_LENGTH} a tenant may have`,
    );
  if (!TENANT_CHARS.test(tenant) || tenant === '.' || tenant === '..')
    throw new InvalidParamsError(
      'tenant',
      `${JSON.stringify(tenant)} is not a tenant: use letters, digits, '.', '_', '~' and '-' (one path segment)`,
    );
  if (reserved.has(tenant))
    throw new InvalidParamsError(
      'tenant',
      `${JSON.stringify(tenant)} names one of this agent's own paths and cannot be a tenant (reserved: ${[...reserved].join(', ')})`,
    );
  return tenant;
}

/** The first segment of each path (`/tasks/{id}` → `tasks`): names a tenant cannot take. */
export function firstSegments(paths: readonly string[]): Set<string> {
  return new Set(paths.map((p) => p.split('/')[1] ?? '').filter((s) => s !== '' && !s.includes('{')));
}
