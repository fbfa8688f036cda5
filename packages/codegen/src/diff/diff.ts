// `diff`: compares two sides (protocol versions, folders of schemas, bundles) type by type and surface by surface,
// then proves each change with a witness message. The report is plain data; the CLI's reporters render it.
import type {
  Breaks,
  Change,
  ChangeSite,
  DiffReport,
  DiffSide,
  SideDocument,
  Witness,
} from './diff-types.js';
import { type FoundChange, schemaChanges, typeLookup } from './schema-changes.js';
import { type SurfaceFinding, subjectType, surfaceChanges } from './surface-changes.js';
import { prove, type SideTools, type Subject, sideTools } from './witness.js';

/** How diffSides places the changes it finds. */
export interface DiffOptions {
  /**
   * Whether each change's site carries its line (default true). Finding a line parses its file for positions; a
   * caller that only names the changes it cannot place otherwise finds them itself (lineOf).
   */
  lines?: boolean;
}

/** Every change from `old` to `new`, each classified and proven (or marked unproven). */
export function diffSides(old: DiffSide, next: DiffSide, options: DiffOptions = {}): DiffReport {
  const site = options.lines === false ? siteOnly : siteWithLine;
  const tools = { old: sideTools(old), new: sideTools(next) };
  const types = { old: typeLookup(old.types), new: typeLookup(next.types) };
  const changes: Change[] = [];
  for (const name of [...new Set([...old.types.keys(), ...next.types.keys()])].sort()) {
    const o = old.types.get(name);
    const n = next.types.get(name);
    if (!o || !n) {
      // A type's name is not on the wire: what a new or vanished type changes shows where it is used. The name came
      // from one side's types, so `t` is always there.
      const t = o ?? n;
      if (t)
        changes.push({
          rule: o ? 'type-removed' : 'type-added',
          area: 'type',
          subject: name,
          message: o ? `the type ${name} is gone` : `the type ${name} is new`,
          ...(o ? { old: site(t, t.at) } : { new: site(t, t.at) }),
          breaks: 'none',
          proven: true,
          witnesses: [],
        });
      continue;
    }
    const subject: Subject = { name, schema: { old: { $ref: o.id }, new: { $ref: n.id } } };
    for (const found of schemaChanges(name, 'type', o.value, n.value, o.at, n.at, types))
      changes.push(finish(found, { old: o, new: n }, subject, tools, site));
  }
  for (const finding of surfaceChanges({ old, new: next }, types)) {
    const docs = { old: old[finding.document], new: next[finding.document] };
    if (!docs.old || !docs.new) continue;
    changes.push(
      finish(finding.found, { old: docs.old, new: docs.new }, finding.subject, tools, site, finding),
    );
  }
  const count = (b: Breaks) =>
    changes.filter((c) => c.breaks === b || (c.breaks === 'both' && b !== 'none')).length;
  return {
    old: old.label,
    new: next.label,
    summary: {
      changes: changes.length,
      receivers: count('receivers'),
      senders: count('senders'),
      none: count('none'),
      unproven: changes.filter((c) => !c.proven).length,
    },
    changes,
  };
}

function finish(
  found: FoundChange,
  docs: Record<'old' | 'new', SideDocument>,
  subject: Subject | undefined,
  tools: Record<'old' | 'new', SideTools>,
  site: (doc: SideDocument, pointer: string) => ChangeSite,
  finding?: SurfaceFinding,
): Change {
  let result: { witnesses: Witness[]; breaks: Breaks; proven: boolean; undecided?: string };
  if (subject) {
    const bases = {
      old: examplesOf(tools.old, subject.schema.old, subject.name),
      new: examplesOf(tools.new, subject.schema.new, subject.name),
    };
    result = prove(found, subject, tools, bases);
  } else {
    const witnesses = finding?.witnesses ?? [];
    const shown = new Set(witnesses.map((w) => w.breaks));
    const needed: Array<'receivers' | 'senders'> =
      found.expect === 'both' ? ['receivers', 'senders'] : found.expect === 'none' ? [] : [found.expect];
    result = { witnesses, breaks: found.expect, proven: needed.every((d) => shown.has(d)) };
  }
  return {
    rule: found.rule,
    area: found.area,
    subject: found.subject,
    message: found.message,
    ...(found.oldPointer !== undefined
      ? { old: site(inType(tools.old, found.oldIn) ?? docs.old, found.oldPointer) }
      : {}),
    ...(found.newPointer !== undefined
      ? { new: site(inType(tools.new, found.newIn) ?? docs.new, found.newPointer) }
      : {}),
    ...result,
  };
}

/** The examples a side has of the type a subject is (a type, or a surface schema that is one type). */
function examplesOf(tools: SideTools, schema: unknown, name: string): unknown[] {
  const type = subjectType(schema) ?? name;
  return tools.side.examples.get(type) ?? [];
}

/** The file of a type a change's pointer is in (a reference followed), when it names one. */
function inType(tools: SideTools, name: string | undefined): SideDocument | undefined {
  return name === undefined ? undefined : tools.side.types.get(name);
}

function siteWithLine(doc: SideDocument, pointer: string): ChangeSite {
  const line = doc.locate?.(pointer);
  return { file: doc.file, pointer, ...(line === undefined ? {} : { line }) };
}

function siteOnly(doc: SideDocument, pointer: string): ChangeSite {
  return { file: doc.file, pointer };
}

/** The line of a site that names a file of one of `sides` (found as diffSides would have), or its own. */
export function lineOf(site: ChangeSite, sides: readonly DiffSide[]): number | undefined {
  if (site.line !== undefined) return site.line;
  for (const side of sides)
    for (const doc of [...side.types.values(), side.openapi, side.openrpc])
      if (doc?.file === site.file && doc.locate) return doc.locate(site.pointer);
  return undefined;
}
