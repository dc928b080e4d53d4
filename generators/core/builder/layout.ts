/**
 * Layout of generated code that is printed as text rather than through a template: JSDoc
 * paragraphs wrapped to the line width, and type arguments, parameters and call arguments on one
 * line when they fit, else one per line, as a formatter would leave them.
 */
import { jsDoc } from './names.js';

/** The line width generated code keeps to where it can. */
const MAX_LINE = 100;

/** A JSDoc block of paragraphs, each wrapped to the line width; the missing ones left out. */
export function doc(...paragraphs: Array<string | undefined>): string {
  return jsDoc([
    paragraphs
      .filter((part) => part !== undefined)
      .map((part) => wrap(part, MAX_LINE - 3))
      .join('\n\n'),
  ]);
}

/** `text` broken into lines of at most `width` characters (a longer word stays whole). */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  // A `{@link name}` stays on one line.
  for (const word of text.split(/\s+(?![^{]*\})/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** `Name<a, b>` on one line when `before` + it + `after` fit, else one argument per line. */
export function generic(name: string, args: string[], before: string, after = ''): string {
  const flat = `${name}<${args.join(', ')}>`;
  const indent = /^ */.exec(before)![0];
  if (before.length + flat.length + after.length <= MAX_LINE) return flat;
  // Type argument lists take no trailing comma.
  return `${name}<\n${args.map((arg) => `${indent}  ${arg}`).join(',\n')}\n${indent}>`;
}

/** `function name(args): result {`, the arguments on one line when they fit. */
export function signature(head: string, args: string[], result: string): string {
  const flat = `${head}(${args.join(', ')}): ${result} {`;
  if (flat.length <= MAX_LINE && !flat.includes('\n')) return flat;
  return `${head}(\n${args.map((arg) => `  ${arg},`).join('\n')}\n): ${result} {`;
}

/** `call(a, b)` on one line after `before` when it fits, else one argument per line. */
export function callExpression(callee: string, args: string[], before: string, after = ''): string {
  const flat = `${callee}(${args.join(', ')})`;
  const indent = /^ */.exec(before)![0];
  if (before.length + flat.length + after.length <= MAX_LINE) return flat;
  return `${callee}(\n${args.map((arg) => `${indent}  ${arg},`).join('\n')}\n${indent})`;
}
