/**
 * Patterns that need no regular expression: `^…$` around a run of ASCII characters and classes,
 * each with an optional quantifier (`^[a-z][a-z0-9-]*$`, `^#[0-9a-f]{6}$`, `^\d{4}-\d{2}$`), the
 * commonest shape in API descriptions. Such a pattern becomes a function that scans the text's
 * character codes once, at about half the cost of `RegExp.prototype.test` (bench/README.md,
 * section 3). Anything else (alternatives, groups, other escapes, an unanchored pattern, a
 * non-ASCII character, a lazy quantifier) stays a regular expression.
 *
 * The scan is greedy and never backtracks, so an atom whose count can vary must share no character
 * with what can come right after it: the optional atoms that follow and the first required one
 * (`^[a-z]*[a-z]$` stays a regular expression). Then taking every character it can is the only
 * way the rest can match, and the scan answers as the pattern does.
 */

/** A set of character codes as inclusive ranges, all below 128. */
type CodeSet = Array<[number, number]>;

export interface Atom {
  /** The atom as written in the pattern, for a comment. */
  source: string;
  set: CodeSet;
  min: number;
  max: number;
}

const DIGIT: CodeSet = [[48, 57]];
const WORD: CodeSet = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
/** Characters an escape turns into themselves (`\.`, `\-`, `\/`, ...). */
const SYNTAX = new Set('^$\\.*+?()[]{}|/-');
/** Characters that are not a literal outside a class. */
const SPECIAL = new Set('^$\\.*+?()[]{}|');

function ascii(char: string | undefined): boolean {
  return char !== undefined && char.length === 1 && char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) < 0x7f;
}

/** An escape at `pattern[at]` (after the backslash): its set, or undefined. */
function escape(char: string | undefined): CodeSet | undefined {
  if (char === 'd') return DIGIT;
  if (char === 'w') return WORD;
  if (char !== undefined && SYNTAX.has(char)) return [[char.charCodeAt(0), char.charCodeAt(0)]];
  return undefined;
}

/** `[...]` starting at `at` (the `[`): its set and where it ends, or undefined. */
function characterClass(pattern: string, at: number): { set: CodeSet; end: number } | undefined {
  const set: CodeSet = [];
  let i = at + 1;
  if (pattern[i] === '^' || pattern[i] === ']') return undefined;
  while (i < pattern.length && pattern[i] !== ']') {
    let low: CodeSet | undefined;
    if (pattern[i] === '\\') {
      low = escape(pattern[i + 1]);
      i += 2;
    } else if (ascii(pattern[i]) && pattern[i] !== '[') {
      low = [[pattern.charCodeAt(i), pattern.charCodeAt(i)]];
      i += 1;
    }
    if (!low) return undefined;
    const [first] = low;
    if (pattern[i] === '-' && pattern[i + 1] !== ']' && i + 1 < pattern.length) {
      // A range: both ends single characters, in order.
      let high: number | undefined;
      if (pattern[i + 1] === '\\') {
        const escaped = escape(pattern[i + 2]);
        if (escaped && escaped.length === 1 && escaped[0]?.[0] === escaped[0]?.[1]) high = escaped[0]?.[0];
        i += 3;
      } else if (ascii(pattern[i + 1]) && pattern[i + 1] !== '[') {
        high = pattern.charCodeAt(i + 1);
        i += 2;
      }
      if (low.length !== 1 || !first || first[0] !== first[1] || high === undefined || high < first[0]) return undefined;
      set.push([first[0], high]);
      // `[a-c-e]` reads differently with and without the `u` flag.
      if (pattern[i] === '-' && pattern[i + 1] !== ']') return undefined;
    } else {
      set.push(...low);
    }
  }
  return i < pattern.length ? { set, end: i + 1 } : undefined;
}

/** A quantifier at `at`: its bounds and where it ends (no quantifier: once). */
function quantifier(pattern: string, at: number): { min: number; max: number; end: number } | undefined {
  const char = pattern[at];
  let result: { min: number; max: number; end: number };
  if (char === '?') result = { min: 0, max: 1, end: at + 1 };
  else if (char === '*') result = { min: 0, max: Number.POSITIVE_INFINITY, end: at + 1 };
  else if (char === '+') result = { min: 1, max: Number.POSITIVE_INFINITY, end: at + 1 };
  else if (char === '{') {
    const match = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(pattern.slice(at));
    if (!match) return undefined;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] ? Number(match[3]) : Number.POSITIVE_INFINITY;
    if (max < min) return undefined;
    result = { min, max, end: at + match[0].length };
  } else return { min: 1, max: 1, end: at };
  // A lazy quantifier (`*?`) can stop early; the scan cannot.
  return pattern[result.end] === '?' ? undefined : result;
}

function overlaps(a: CodeSet, b: CodeSet): boolean {
  return a.some(([low, high]) => b.some(([otherLow, otherHigh]) => low <= otherHigh && otherLow <= high));
}

/** The atoms of a pattern the scan can match exactly, or undefined. */
export function scannableAtoms(pattern: string): Atom[] | undefined {
  if (pattern.length < 2 || !pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) return undefined;
  const body = pattern.slice(1, -1);
  const atoms: Atom[] = [];
  let at = 0;
  while (at < body.length) {
    const start = at;
    let set: CodeSet | undefined;
    const char = body[at];
    if (char === '[') {
      const parsed = characterClass(body, at);
      if (!parsed) return undefined;
      set = parsed.set;
      at = parsed.end;
    } else if (char === '\\') {
      set = escape(body[at + 1]);
      at += 2;
    } else if (ascii(char) && !SPECIAL.has(char as string)) {
      set = [[body.charCodeAt(at), body.charCodeAt(at)]];
      at += 1;
    }
    if (!set || set.length === 0) return undefined;
    const count = quantifier(body, at);
    if (!count) return undefined;
    at = count.end;
    atoms.push({ source: body.slice(start, at), set, min: count.min, max: count.max });
  }
  for (const [index, atom] of atoms.entries()) {
    if (atom.min === atom.max) continue;
    // What comes next is one of the optional atoms after it or the first required one.
    for (const later of atoms.slice(index + 1)) {
      if (overlaps(atom.set, later.set)) return undefined;
      if (later.min > 0) break;
    }
  }
  return atoms;
}

/** `code` is in `set`: `code === 35`, `(code >= 97 && code <= 122) || code === 45`. */
function member(set: CodeSet, code: string): string {
  const tests = set.map(([low, high]) => (low === high ? `${code} === ${low}` : `${code} >= ${low} && ${code} <= ${high}`));
  return tests.length === 1 ? (tests[0] as string) : tests.map((test) => (test.includes('&&') ? `(${test})` : test)).join(' || ');
}

/**
 * The statements of a function `(text) => boolean` matching `atoms` (see scannableAtoms): `at`
 * moves along the text, each atom takes its characters, and the text must end where they do.
 */
export function scanStatements(atoms: Atom[]): string[] {
  if (atoms.length === 0) return ['return text.length === 0;'];
  const lines = ['const end = text.length;', 'let at = 0;'];
  let singles = 0;
  let runs = 0;
  for (const atom of atoms) {
    lines.push(`// ${atom.source}`);
    if (atom.min === 1 && atom.max === 1) {
      // Past the end charCodeAt is NaN, which no test accepts.
      const [only] = atom.set;
      if (atom.set.length === 1 && only && only[0] === only[1]) {
        lines.push(`if (text.charCodeAt(at++) !== ${only[0]}) return false;`);
      } else {
        const code = `code${++singles}`;
        lines.push(`const ${code} = text.charCodeAt(at++);`);
        lines.push(`if (!(${member(atom.set, code)})) return false;`);
      }
      continue;
    }
    // Where the run started, when its length is bounded.
    const from = atom.min > 0 || Number.isFinite(atom.max) ? `from${++runs}` : undefined;
    const bound = from && Number.isFinite(atom.max) ? ` && at - ${from} < ${atom.max}` : '';
    if (from) lines.push(`const ${from} = at;`);
    lines.push(`while (at < end${bound}) {`);
    lines.push('  const code = text.charCodeAt(at);');
    lines.push(`  if (!(${member(atom.set, 'code')})) break;`);
    lines.push('  at++;');
    lines.push('}');
    if (from && atom.min > 0) lines.push(`if (at - ${from} < ${atom.min}) return false;`);
  }
  lines.push('return at === end;');
  return lines;
}
