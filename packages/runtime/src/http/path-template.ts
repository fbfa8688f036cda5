// OpenAPI path templates in Hono's route syntax, and the literal text around parameters that share a segment with it.

/**
 * Hono's path syntax for an OpenAPI path template: `/tasks/{task_id}` → `/tasks/:task_id`. A parameter with literal
 * text around it in its segment (`/tasks/{id}:cancel`, a custom method in Google's API style) becomes a parameter
 * whose pattern holds that text: `/tasks/:id{[^/]+:cancel}`; `pathAffixes` says what to strip from its value.
 */
export function honoPath(template: string): string {
  return template
    .split('/')
    .map((segment) => {
      const m = AFFIXED.exec(segment);
      if (!m) return segment.replace(/\{([^{}]+)\}/g, ':$1');
      const [, prefix = '', name = '', suffix = ''] = m;
      return prefix === '' && suffix === ''
        ? `:${name}`
        : `:${name}{${escapeRegExp(prefix)}[^/]+${escapeRegExp(suffix)}}`;
    })
    .join('/');
}

/** A segment holding one parameter, with the literal text before and after it. */
const AFFIXED = /^([^{}]*)\{([^{}]+)\}([^{}]*)$/;

/** The literal text around each parameter that shares its segment with some (`{id}:cancel` → id: ['', ':cancel']). */
export function pathAffixes(template: string): ReadonlyMap<string, readonly [string, string]> {
  const out = new Map<string, readonly [string, string]>();
  for (const segment of template.split('/')) {
    const m = AFFIXED.exec(segment);
    if (m && (m[1] !== '' || m[3] !== '')) out.set(m[2] ?? '', [m[1] ?? '', m[3] ?? '']);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&');
}
