/** One problem found in a source file, with where it is. */
export interface Diagnostic {
  /** Path of the file, relative to the repository root. */
  file: string;
  /** 1-based line, when the file's text locates the pointer. */
  line?: number;
  /** JSON pointer into the file's document ('' is the whole document). */
  pointer: string;
  /** What is wrong, and what was expected. */
  message: string;
}

/** Renders a diagnostic as `file:line: pointer: message`, the form every agentproto command prints. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line === undefined ? d.file : `${d.file}:${d.line}`;
  return `${where}: ${d.pointer === '' ? '(root)' : d.pointer}: ${d.message}`;
}

/** Thrown by a pipeline stage that found problems in its input; carries every diagnostic, not just the first. */
export class DiagnosticsError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'DiagnosticsError';
    this.diagnostics = diagnostics;
  }
}

// One definition of JSON pointers for the whole project: the runtime's.
export { escapePointerToken, parsePointer } from '@agentproto/runtime/locate';
