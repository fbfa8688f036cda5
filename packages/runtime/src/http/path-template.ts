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

/** A template compiled for matching and filling by hand (no regex is built from it). */
export interface PathTemplate {
  /** The variables, in order. */
  vars: readonly string[];
  /** The variables' values when `path` fits the template (each non-empty, without `/`); undefined otherwise. */
  match(path: string): Record<string, string> | undefined;
  /** The template filled from `values`; undefined when one of its variables has no usable string value. */
  fill(values: Readonly<Record<string, unknown>>): string | undefined;
}

/**
 * Compiles a template (`/tasks/{id}:cancel`, `tasks/{taskId}/pushNotificationConfigs/{id}`) to match paths segment by
 * segment: each segment is literal, or one variable between a literal prefix and suffix. Throws on a segment with
 * more than one variable, or a stray brace.
 */
export function compilePathTemplate(template: string): PathTemplate {
  const segments = template.split('/').map((segment) => {
    const m = AFFIXED.exec(segment);
    if (m) return { prefix: m[1] ?? '', name: m[2] ?? '', suffix: m[3] ?? '' };
    if (segment.includes('{') || segment.includes('}'))
      throw new Error(`path template ${template}: "${segment}" is not one variable between literal text`);
    return { literal: segment };
  });
  const vars = segments.flatMap((s) => ('name' in s ? [s.name] : []));
  return {
    vars,
    match(path) {
      const parts = path.split('/');
      if (parts.length !== segments.length) return undefined;
      const out: Record<string, string> = {};
      for (const [i, s] of segments.entries()) {
        const part = parts[i] ?? '';
        if ('literal' in s) {
          if (part !== s.literal) return undefined;
          continue;
        }
        const size = part.length - s.prefix.length - s.suffix.length;
        if (size <= 0 || !part.startsWith(s.prefix) || !part.endsWith(s.suffix)) return undefined;
        out[s.name] = part.slice(s.prefix.length, part.length - s.suffix.length);
      }
      return out;
    },
    fill(values) {
      const parts: string[] = [];
      for (const s of segments) {
        if ('literal' in s) {
          parts.push(s.literal);
          continue;
        }
        const v = values[s.name];
        if (typeof v !== 'string' || v === '' || v.includes('/')) return undefined;
        parts.push(`${s.prefix}${v}${s.suffix}`);
      }
      return parts.join('/');
    },
  };
}
