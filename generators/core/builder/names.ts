/**
 * Turning schema text into safe TypeScript: identifiers, property keys, string literals and JSDoc.
 * Every name, description and enum value from a schema goes through one of these, so no input can
 * break out of the position it is written into.
 */

const RESERVED = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'as',
  'implements',
  'interface',
  'let',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'yield',
  'await',
  'any',
  'boolean',
  'number',
  'string',
  'symbol',
  'object',
  'never',
  'unknown',
  'undefined',
  'bigint',
  'type',
  'arguments',
  'eval',
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'Date',
  'Error',
  'Promise',
  'Record',
  'Map',
  'Set',
  'Symbol',
  'Function',
  'Blob',
  'File',
  'FormData',
  'Response',
  'Request',
  'Headers',
]);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Splits `getTask_byId`, `task-list`, `HTTPServer2` and `filter[status]` into words. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `task list` → `TaskList`. Never empty, never starts with a digit, never a reserved word. */
export function pascalCase(text: string): string {
  const joined = words(text).map(capitalise).join('');
  return safeIdentifier(joined, 'Type');
}

/** `Task List` → `taskList`. */
export function camelCase(text: string): string {
  const parts = words(text);
  if (parts.length === 0) return '_';
  const first = parts[0];
  const head = /^[A-Z]+$/.test(first) && parts.length > 1 ? first.toLowerCase() : first.charAt(0).toLowerCase() + first.slice(1);
  const joined = head + parts.slice(1).map(capitalise).join('');
  return safeIdentifier(joined, '_');
}

/** Makes `text` a legal identifier that is not a reserved word, by prefixing when needed. */
export function safeIdentifier(text: string, fallback = '_'): string {
  let id = text.replace(/[^A-Za-z0-9_$]/g, '_');
  if (id === '') id = fallback;
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}_`;
  return id;
}

export function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}

const LINE_SEPARATORS = /[\u2028\u2029]/;

/** A string literal in double quotes, escaped (JSON escaping is valid TypeScript escaping). */
export function stringLiteral(value: string): string {
  const json = JSON.stringify(value);
  // Most literals have neither separator: one test instead of two replacing scans.
  return LINE_SEPARATORS.test(json) ? json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029') : json;
}

/** A literal for any JSON value: strings, numbers, booleans, null, arrays and objects. */
export function jsonLiteral(value: unknown): string {
  if (typeof value === 'string') return stringLiteral(value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(jsonLiteral).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => `${objectKey(key)}: ${jsonLiteral(item)}`);
    return `{ ${entries.join(', ')} }`;
  }
  throw new TypeError(`cannot write ${typeof value} as a literal`);
}

/**
 * `jsonLiteral` over several lines when it does not fit in `width` columns: one element or property
 * per line, nested ones indented by two more spaces than `indent` (the line the literal starts on).
 * `lead` counts the columns its first line holds before and after it (`export const a: A = ` and `;`).
 */
export function jsonBlock(value: unknown, indent = '', width = 100, lead = 0): string {
  const flat = jsonLiteral(value);
  if (indent.length + lead + flat.length <= width || value === null || typeof value !== 'object') return flat;
  const inner = `${indent}  `;
  // The records of one list are laid out alike: each on one line, or each broken.
  const broken = Array.isArray(value) && value.some((item) => jsonBlock(item, inner, width, 1).includes('\n'));
  const lines = Array.isArray(value)
    ? value.map((item) => `${inner}${jsonBlock(item, inner, width, broken && isRecord(item) ? width : 1)},`)
    : Object.entries(value as Record<string, unknown>).map(
        ([key, item]) => `${inner}${objectKey(key)}: ${jsonBlock(item, inner, width, objectKey(key).length + 3)},`,
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${lines.join('\n')}\n${indent}${close}`;
}

function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}

/**
 * A key for a type member or interface property: bare when it is an identifier, quoted otherwise.
 * In a type, `"__proto__": T` is an ordinary property, so quoting is enough there.
 */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : stringLiteral(name);
}

/**
 * A key for an object literal (a value, not a type). `__proto__: x` in an object literal sets the
 * prototype instead of a property, so it is written as a computed key.
 */
export function objectKey(name: string): string {
  if (name === '__proto__') return `[${stringLiteral(name)}]`;
  return propertyKey(name);
}

/** An object literal's property holding a local: the shorthand `name` when the local has the key's name. */
export function objectProperty(key: string, local: string): string {
  return key === local ? key : `${objectKey(key)}: ${local}`;
}

/** Property access: `obj.name` or `obj["na-me"]`. */
export function propertyAccess(target: string, name: string): string {
  return IDENTIFIER.test(name) ? `${target}.${name}` : `${target}[${stringLiteral(name)}]`;
}

/** Text that is safe inside a `/** ... *\/` comment: no `*\/`, no stray control characters. */
export function commentText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\*\//g, '*\\/')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u2028\u2029]/g, ' ')
    .trimEnd();
}

/** Prefixes every non-empty line of `code` with `by` (a scaffold's method body inside its object). */
export function indent(code: string, by: string): string {
  return code.replace(/^(?=.)/gm, by);
}

/**
 * A JSDoc block from lines of text (descriptions, `@deprecated`, ...), indented by `indent`.
 * Empty input gives an empty string, so templates can always print it.
 */
export function jsDoc(parts: Array<string | undefined | false>, indent = ''): string {
  const lines = commentLines(parts);
  if (lines.length === 0) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0].trim()} */\n`;
  return `${indent}/**\n${starLines(lines, indent)}${indent} */\n`;
}

/**
 * The inner lines of a JSDoc block (` * text`, each ending with a newline), for a template that
 * writes the block's fixed prose around them; empty input gives an empty string.
 */
export function jsDocLines(parts: Array<string | undefined | false>, indent = ''): string {
  return starLines(commentLines(parts), indent);
}

function starLines(lines: string[], indent: string): string {
  return lines.map((line) => `${indent} *${line.trim() ? ` ${line.trimEnd()}` : ''}\n`).join('');
}

function commentLines(parts: Array<string | undefined | false>): string[] {
  const lines = parts
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .flatMap((part) => commentText(part).split('\n'));
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  return lines;
}

/** Picks `base`, or `base2`, `base3`, ... so that it is not in `taken`; records the choice. */
export function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

/**
 * `Tasks API` → `TasksApi`: the base of an API's generated names (`TasksApiClient`,
 * `TasksApiHandlers`). Acronyms are capitalised as words; a trailing "Client"/"Server" is dropped.
 */
export function apiBaseName(title: string): string {
  const parts = words(title).map((word) => (/^[A-Z0-9]+$/.test(word) ? word.charAt(0) + word.slice(1).toLowerCase() : capitalise(word)));
  while (parts.length > 1 && /^(client|server)$/i.test(parts[parts.length - 1])) parts.pop();
  return safeIdentifier(parts.join('') || 'Api', 'Api');
}
