/** Where something is in an input file; line and column are 1-based. */
export interface SourceLocation {
  /** Path as the user wrote it, relative to the working directory when possible. */
  file: string;
  line: number;
  column: number;
}

/** One problem in the user's input: where, what is wrong, and how to fix it. */
export interface Diagnostic {
  location?: SourceLocation;
  message: string;
  /** A short suggestion on how to fix it. */
  hint?: string;
  severity: 'error' | 'warning';
}

/** Thrown for bad input (exit code 1). Carries every diagnostic found, not just the first. */
export class CodegenError extends Error {
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[] | Diagnostic) {
    const list = Array.isArray(diagnostics) ? diagnostics : [diagnostics];
    super(list.map(formatDiagnostic).join('\n'));
    this.name = 'CodegenError';
    this.diagnostics = list;
  }
}

/** Thrown for wrong command-line usage (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function formatLocation(location: SourceLocation): string {
  return `${location.file}:${location.line}:${location.column}`;
}

/** `file:line:col: error: message (hint)` — the form editors and CI logs recognise. */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const where = diagnostic.location ? `${formatLocation(diagnostic.location)}: ` : '';
  const hint = diagnostic.hint ? `\n  hint: ${diagnostic.hint}` : '';
  return `${where}${diagnostic.severity}: ${diagnostic.message}${hint}`;
}

export function error(message: string, location?: SourceLocation, hint?: string): CodegenError {
  return new CodegenError({ severity: 'error', message, location, hint });
}
