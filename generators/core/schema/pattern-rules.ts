/**
 * Schema values no validator can be compiled from: a `pattern` (or `patternProperties` name)
 * that is not a regular expression, a `multipleOf` of 0 or less. The loaders report them as
 * located diagnostics (dialect.ts, which AsyncAPI shares); the validator emitter asks the
 * same questions and throws for schemas that did not come through a loader.
 */

/**
 * The flags a pattern compiles with: `u` when it is valid Unicode-mode syntax (JSON Schema
 * patterns are ECMA-262 with code-point semantics), none when only the legacy syntax accepts it,
 * or the engine's complaint when neither does.
 */
export function patternFlags(pattern: string): { flags: 'u' | '' } | { problem: string } {
  try {
    new RegExp(pattern, 'u');
    return { flags: 'u' };
  } catch {
    try {
      new RegExp(pattern);
      return { flags: '' };
    } catch (error) {
      // "Invalid regular expression: /(/: Unterminated group" → "Unterminated group".
      const message = (error as Error).message;
      return { problem: message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') };
    }
  }
}

/** Why `multipleOf` cannot be `value`, or undefined when it can. */
export function multipleOfProblem(value: number): string | undefined {
  return value > 0 ? undefined : `must be greater than 0, not ${value}`;
}
