/**
 * The `.js` form of a validator module (`validators: js`): the same code with its types erased.
 * Signatures are printed untyped by the module itself (module.ts, emit.ts); inside the bodies and
 * constants the emitter prints a closed set of TypeScript, erased here: casts to the few types a
 * narrowed value is read as (`(value as string)`, `value as Record<string, unknown>`) and the type
 * argument of the constant sets (`new Set<string>(…)`). String literals (JSON-quoted, the only kind
 * the emitter prints) are left alone.
 */

/** The types the emitter casts to (node.ts, scalars.ts, discriminator.ts). */
const CAST_TYPES = String.raw`Record<string, unknown>|unknown\[\]|unknown|string|number`;

const TYPESCRIPT = new RegExp(
  [
    String.raw`("(?:[^"\\\n]|\\.)*")`,
    String.raw`\(([A-Za-z_$][\w$]*) as (?:${CAST_TYPES})\)`,
    String.raw` as (?:${CAST_TYPES})(?![\w$<[])`,
    String.raw`(new Set)<(?:unknown|string)>\(`,
  ].join('|'),
  'g',
);

/** `code` (validator bodies or constants) without its type annotations. */
export function eraseTypes(code: string): string {
  return code.replace(TYPESCRIPT, (_match, string?: string, identifier?: string, set?: string) => {
    if (string !== undefined) return string;
    if (identifier !== undefined) return identifier;
    return set === undefined ? '' : `${set}(`;
  });
}
