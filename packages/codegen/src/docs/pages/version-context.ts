// What every page of one protocol version needs: links to its types, and which types and operations use a type.
import type { SurfaceContent } from '@agentproto/runtime/contract';
import { type Html, html } from '../html.js';
import { VersionSamples } from '../samples.js';
import { referencedTypes, type TypeLink } from '../schema-view.js';
import type { DocsProtocol, DocsVersion } from '../site-model.js';
import { anchor, sitePaths } from '../site-paths.js';
import { rel } from './layout.js';

/** One protocol version, with its cross-links. */
export interface VersionContext {
  protocol: DocsProtocol;
  v: DocsVersion;
  /** Links from the page at `from` to type pages. */
  link: (from: string) => TypeLink;
  /** A site path made relative to the page at `from`. */
  to: (from: string, path: string) => string;
  /** Links to what uses a type: the types whose schemas reference it, the operations and methods that carry it. */
  usedBy: (typeName: string) => Array<(from: string) => Html>;
  /** Sample messages of the version's types: its examples, or built from the schemas. */
  samples: VersionSamples;
}

/** Builds the context of a version: the reverse index of references is computed once. */
export function versionContext(protocol: DocsProtocol, v: DocsVersion): VersionContext {
  const to = rel;
  const link =
    (from: string): TypeLink =>
    (name) =>
      v.types.has(name)
        ? html`<a class="type" href="${to(from, sitePaths.type(v.protocol, v.version, name))}">${name}</a>`
        : html`<code>${name}</code>`;
  const users = new Map<string, Array<(from: string) => Html>>();
  const use = (name: string, ref: (from: string) => Html) => {
    const list = users.get(name) ?? [];
    list.push(ref);
    users.set(name, list);
  };
  for (const t of v.types.values()) {
    for (const name of referencedTypes(t.schema))
      if (name !== t.name) use(name, (from) => link(from)(t.name));
  }
  const operationsPage = sitePaths.operations(v.protocol, v.version);
  const names = (contents: readonly SurfaceContent[]) =>
    contents.flatMap((c) => [c.typeName, c.item?.typeName, ...referencedTypes(c.schema)]);
  for (const op of v.surface.operations) {
    const carried = new Set<string | undefined>([
      ...names(op.body?.contents ?? []),
      ...Object.values(op.responses).flatMap(names),
    ]);
    for (const name of carried) {
      if (!name) continue;
      use(
        name,
        (from) =>
          html`<a href="${to(from, `${operationsPage}#${anchor('op', op.operationId)}`)}">${op.method} ${op.path}</a>`,
      );
    }
  }
  for (const m of v.surface.rpc?.methods ?? []) {
    for (const name of new Set([...referencedTypes(m.params), m.resultType, m.paramsType])) {
      if (!v.types.has(name)) continue;
      use(
        name,
        (from) =>
          html`<a href="${to(from, `${operationsPage}#${anchor('rpc', m.name)}`)}">JSON-RPC ${m.name}</a>`,
      );
    }
  }
  return {
    protocol,
    v,
    link,
    to,
    usedBy: (name) => users.get(name) ?? [],
    samples: new VersionSamples(v.types),
  };
}
