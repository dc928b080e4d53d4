/**
 * Merges generated check functions that do the same thing. Schemas are shared by structure
 * before emitting (emit-validators-module.ts), but two schemas that differ only in which of two
 * equivalent schemas they reference (`Issue` → `SimpleUser`, `IssueCopy` → `SimpleUserCopy`)
 * still get a function each. Here a function is named by its text with the names of the functions
 * it calls left out, plus what those functions are, refined until nothing changes (the
 * coarsest partition in which equal texts call equivalent functions, cycles included); every
 * class keeps its first function and the others' callers call that one.
 */

/** One string literal, or one identifier. */
const TOKEN = /"(?:[^"\\\n]|\\.)*"|[A-Za-z_$][\w$]*/g;

interface Parsed {
  name: string;
  /** Text with every reference to a check function replaced by `\u0000`. */
  shape: string;
  callees: string[];
}

/**
 * `functions`: generated declarations in output order, each either a check function
 * (`function checkX(...) {...}`) or other text (exported wrappers) that may call them. Returns
 * the declarations to emit: merged functions dropped, references renamed.
 */
export function mergeEquivalent(functions: string[]): string[] {
  const names = new Map<string, number>();
  functions.forEach((text, index) => {
    const match = /^function ([\w$]+)\(/.exec(text);
    if (match) names.set(match[1], index);
  });
  if (names.size < 2) return functions;
  const parsed: Parsed[] = [];
  for (const [name, index] of names) {
    const text = functions[index];
    const callees: string[] = [];
    // The function's own name (in its header) is left out, so a function is named by what it does.
    const body = text.slice(text.indexOf('('));
    const shape = body.replace(TOKEN, (token) => {
      if (token.charCodeAt(0) === 34 || !names.has(token)) return token;
      callees.push(token);
      return '\u0000';
    });
    parsed.push({ name, shape, callees });
  }
  // Partition refinement: start from equal shapes, split by the classes of the callees.
  let classes = new Map<string, number>();
  const ids = new Map<string, number>();
  for (const item of parsed) {
    if (!ids.has(item.shape)) ids.set(item.shape, ids.size);
    classes.set(item.name, ids.get(item.shape)!);
  }
  for (let count = ids.size; ; ) {
    const next = new Map<string, number>();
    const keys = new Map<string, number>();
    for (const item of parsed) {
      const key = `${classes.get(item.name)}|${item.callees.map((callee) => classes.get(callee)).join(',')}`;
      if (!keys.has(key)) keys.set(key, keys.size);
      next.set(item.name, keys.get(key)!);
    }
    classes = next;
    if (keys.size === count) break;
    count = keys.size;
  }
  // The first function of each class (in output order) stays.
  const kept = new Map<number, string>();
  const rename = new Map<string, string>();
  for (const [name] of names) {
    const cls = classes.get(name)!;
    const first = kept.get(cls);
    if (first === undefined) kept.set(cls, name);
    else rename.set(name, first);
  }
  if (rename.size === 0) return functions;
  const out: string[] = [];
  functions.forEach((text, index) => {
    const match = /^function ([\w$]+)\(/.exec(text);
    if (match && rename.has(match[1]) && names.get(match[1]) === index) return;
    out.push(text.replace(TOKEN, (token) => (token.charCodeAt(0) === 34 ? token : (rename.get(token) ?? token))));
  });
  return out;
}
