/**
 * What `codegen diff` reports: one Change per difference between two versions of an API, with its
 * class (breaking / dangerous / safe), what it does on the wire and to generated code, and where it
 * is written (the new document, or the old one for removals). The per-style modules
 * (openapi.ts, proto.ts, graphql.ts) produce Changes; this module applies the seed's versioning
 * rule (§9) and prints them.
 */
import type { SourceLocation } from '../core/diagnostics.js';
import { formatLocation } from '../core/diagnostics.js';

export type ChangeClass = 'breaking' | 'dangerous' | 'safe';

export interface Change {
  /** Stable id of the change kind, e.g. `response-property-removed`, `field-number-reused`. */
  kind: string;
  class: ChangeClass;
  /** What changed, naming the element: `GET /tasks: query parameter "q" is now required`. */
  message: string;
  /** What an old client or server sees on the wire. */
  wire: string;
  /** What happens to code generated from the old version when it is regenerated. */
  code: string;
  location?: SourceLocation;
  /**
   * For breaking changes: covered by a version switch the seed allows (§9: a new version segment in
   * the path or a header switch; a new proto package version). Uncovered breaking changes are errors.
   */
  versioned?: boolean;
  /** buf's rule categories this change falls under (proto only): FILE, PACKAGE, WIRE_JSON, WIRE. */
  categories?: string[];
}

/** Per side: the folder paths are shown from, and the folders `$ref`s and imports may read (default: the input's folder). */
export interface SideRoots {
  old: string;
  new: string;
  oldRead?: string[];
  newRead?: string[];
}

export const CWD_ROOTS = (): SideRoots => ({ old: process.cwd(), new: process.cwd() });

export interface DiffResult {
  style: 'openapi' | 'proto' | 'graphql' | 'asyncapi';
  changes: Change[];
}

/** A breaking change the versioning rule does not excuse: these make `codegen diff` exit 1. */
export function isError(change: Change): boolean {
  return change.class === 'breaking' && !change.versioned;
}

const ORDER: Record<ChangeClass, number> = { breaking: 0, dangerous: 1, safe: 2 };

/** Breaking first, then dangerous, then safe; within a class by file, line, column. */
export function sortChanges(changes: Change[]): Change[] {
  const at = (c: Change) =>
    c.location
      ? `${c.location.file}\u0000${String(c.location.line).padStart(8, '0')}\u0000${String(c.location.column).padStart(6, '0')}`
      : '';
  return [...changes].sort((a, b) => ORDER[a.class] - ORDER[b.class] || at(a).localeCompare(at(b)) || a.message.localeCompare(b.message));
}

/** `file:line:col: breaking: message` with the wire and code consequences on indented lines. */
export function formatHuman(result: DiffResult): string {
  const lines: string[] = [];
  for (const change of sortChanges(result.changes)) {
    const where = change.location ? `${formatLocation(change.location)}: ` : '';
    const label = change.class === 'breaking' ? (change.versioned ? 'breaking (versioned)' : 'error: breaking') : change.class;
    lines.push(`${where}${label}: ${change.message} [${change.kind}]`);
    if (change.class !== 'safe') {
      lines.push(`  wire: ${change.wire}`);
      lines.push(`  code: ${change.code}`);
    }
  }
  const count = (c: ChangeClass) => result.changes.filter((change) => change.class === c).length;
  const errors = result.changes.filter(isError).length;
  lines.push(
    `codegen diff (${result.style}): ${count('breaking')} breaking (${errors} without a new version), ${count('dangerous')} dangerous, ${count('safe')} safe`,
  );
  if (errors > 0) lines.push(versioningHint(result.style));
  return lines.join('\n');
}

function versioningHint(style: DiffResult['style']): string {
  switch (style) {
    case 'openapi':
      return 'hint: api-conventions §9.1: removing or changing fields needs a new version in the path (/v2/...) or a header switch; keep the old operations as they were';
    case 'proto':
      return 'hint: api-conventions §9.4: make breaking changes in a new versioned package (acme.tasks.v2), or keep field numbers, names and types as they were';
    case 'graphql':
      return 'hint: api-conventions §9.2: GraphQL has no versions: add new fields and deprecate old ones (@deprecated(reason: ...)) instead of removing or changing them';
    case 'asyncapi':
      return 'hint: keep old events and message fields, add new ones beside them, or move the change to a new channel address';
  }
}

export function formatJson(result: DiffResult): string {
  return JSON.stringify(
    {
      style: result.style,
      summary: {
        breaking: result.changes.filter((c) => c.class === 'breaking').length,
        errors: result.changes.filter(isError).length,
        dangerous: result.changes.filter((c) => c.class === 'dangerous').length,
        safe: result.changes.filter((c) => c.class === 'safe').length,
      },
      changes: sortChanges(result.changes),
    },
    null,
    2,
  );
}
