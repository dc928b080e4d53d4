/**
 * The module specifiers a TypeScript file imports: `import … from`, `export … from`, side-effect
 * `import "x"`, `import("x")` (dynamic or in a type) and `require("x")`. A small scanner instead
 * of the TypeScript compiler: loading the compiler costs ~350 ms a run, and this only has to skip
 * comments, strings, template literals and regular expressions correctly (tested against
 * `ts.preProcessFile` on every generated file).
 */

import type { GeneratedFile } from './output.js';

export interface ImportedSpecifier {
  specifier: string;
  /** `import type …` / `export type … from`: erased at compile time, needed only by the type checker. */
  typeOnly: boolean;
}

/** After these words a `/` starts a regular expression, not a division. */
const BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/**
 * Where an import could be: `from`, `import` or `require`, then (past a `(`, blanks and block
 * comments) a quote. Scanning stops after the last such place, so a 3 MB validators file whose
 * imports are all at the top costs a regex search, not a full scan.
 */
const CANDIDATE = /\b(?:from|import|require)\s*(?:\/\*[^]*?\*\/\s*)*(?:\(\s*(?:\/\*[^]*?\*\/\s*)*)?["']/g;

/** A line that is a doc comment's `*` line or a `//` comment, from its start. */
const COMMENT_LINE = /[ \t]*(?:\*|\/\/)/y;

/**
 * A candidate that is surely text, not an import: right after a quote, a `.` or a path's `/`
 * (`o["from"]`, `"/repos/{owner}/{repo}/import"`), or on a comment line (`returned from "Issues"`).
 * Without this, GitHub's validators.js, server-routes.js, client.ts and server.ts were scanned to their ends.
 */
function isText(source: string, at: number): boolean {
  const before = source[at - 1];
  if (before === '"' || before === "'" || before === '.' || (before === '/' && source[at - 2] !== '*')) return true;
  COMMENT_LINE.lastIndex = source.lastIndexOf('\n', at - 1) + 1;
  return COMMENT_LINE.test(source);
}

const scans = new WeakMap<GeneratedFile, { content: string; found: ImportedSpecifier[] }>();

/**
 * `importSpecifiers` of a generated file, scanned once per content: a run asks twice (the runtime
 * files it needs, the packages it imports), and validators.js or server.ts are megabytes long.
 */
export function fileImportSpecifiers(file: GeneratedFile): ImportedSpecifier[] {
  const cached = scans.get(file);
  if (cached?.content === file.content) return cached.found;
  const found = importSpecifiers(file.content);
  scans.set(file, { content: file.content, found });
  return found;
}

export function importSpecifiers(source: string): ImportedSpecifier[] {
  const found: ImportedSpecifier[] = [];
  const length = source.length;
  let scanEnd = 0;
  for (const match of source.matchAll(CANDIDATE)) if (!isText(source, match.index)) scanEnd = match.index + match[0].length;
  // The last three significant tokens, newest first; a string literal is recorded as `"`.
  let last = '';
  let beforeLast = '';
  let thirdLast = '';
  let regexAllowed = true;
  // Inside `import`/`export` declarations: 0 none, 1 just after the keyword, 2 after `import type`.
  let declaration = 0;
  let declarationTypeOnly = false;
  // Brace depths at which a template literal's `${` opened, so its `}` resumes the template.
  const templates: number[] = [];
  let braces = 0;
  let i = 0;

  const token = (text: string) => {
    if (declaration === 1) {
      declaration = text === 'type' ? 2 : 0;
    } else if (declaration === 2) {
      // `import type X`, `import type {`, `export type *`; but `import type from "x"` and
      // `import type, { a }` import a default binding named `type`.
      declarationTypeOnly = text !== 'from' && text !== ',' && text !== '=';
      declaration = 0;
    }
    if ((text === 'import' || text === 'export') && last !== '.') {
      declaration = 1;
      declarationTypeOnly = false;
    }
    thirdLast = beforeLast;
    beforeLast = last;
    last = text;
  };

  // Scans a template literal's text from `i` (just after a backtick or a closing `}`) to its end or
  // to the next `${`.
  const scanTemplate = () => {
    while (i < length) {
      const char = source[i];
      if (char === '\\') i += 2;
      else if (char === '`') {
        i++;
        token('`');
        regexAllowed = false;
        return;
      } else if (char === '$' && source[i + 1] === '{') {
        i += 2;
        templates.push(braces);
        braces++;
        regexAllowed = true;
        return;
      } else i++;
    }
  };

  while (i < scanEnd) {
    const char = source[i];
    const next = source[i + 1];
    if (char === ' ' || char === '\n' || char === '\t' || char === '\r') {
      i++;
    } else if (char === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      i = end === -1 ? length : end;
    } else if (char === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end === -1 ? length : end + 2;
    } else if (char === '"' || char === "'") {
      let end = i + 1;
      while (end < length && source[end] !== char && source[end] !== '\n') end += source[end] === '\\' ? 2 : 1;
      const text = source.slice(i + 1, end);
      i = end + 1;
      if (last === 'from' && beforeLast !== '.') found.push({ specifier: text, typeOnly: declarationTypeOnly });
      else if (last === 'import' && beforeLast !== '.') found.push({ specifier: text, typeOnly: false });
      else if (last === '(' && (beforeLast === 'import' || beforeLast === 'require') && thirdLast !== '.')
        found.push({ specifier: text, typeOnly: false });
      token('"');
      regexAllowed = false;
    } else if (char === '`') {
      i++;
      scanTemplate();
    } else if (isIdentifierChar(char)) {
      let end = i + 1;
      while (end < length && isIdentifierChar(source[end])) end++;
      const word = source.slice(i, end);
      i = end;
      token(word);
      // `x.return / 2` divides: a keyword after `.` is a property name.
      regexAllowed = BEFORE_EXPRESSION.has(word) && beforeLast !== '.';
    } else if (char === '/') {
      if (regexAllowed) {
        i = regexEnd(source, i);
        token('/regex/');
        regexAllowed = false;
      } else {
        i++;
        token('/');
        regexAllowed = true;
      }
    } else if (char === '}' && templates.length > 0 && templates[templates.length - 1] === braces - 1) {
      templates.pop();
      braces--;
      i++;
      scanTemplate();
    } else {
      if (char === '{') braces++;
      else if (char === '}') braces--;
      i++;
      token(char);
      regexAllowed = char !== ')' && char !== ']' && char !== '}';
    }
  }
  return found;
}

function isIdentifierChar(char: string): boolean {
  const code = char.charCodeAt(0);
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36 || code > 127
  );
}

/** The index just after a regular expression literal (its flags included) that starts at `start`. */
function regexEnd(source: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < source.length && source[i] !== '\n') {
    const char = source[i];
    if (char === '\\') i += 2;
    else {
      if (char === '[') inClass = true;
      else if (char === ']') inClass = false;
      else if (char === '/' && !inClass) break;
      i++;
    }
  }
  i++;
  while (i < source.length && isIdentifierChar(source[i])) i++;
  return i;
}
