/**
 * Config `mappers` of the `types` plugin, checked and turned into TS types and imports. The syntax is
 * graphql-codegen's, so a `codegen.yml` that works there works here:
 *
 * - `"<module>#<Export>"`: `import type { Export } from "<module>"`; `"<module>#<Export> as <Local>"`
 *   imports it under another name; `"<module>#default"` imports the default export (as
 *   `<Type>Mapper`); `"<module>#<Namespace>.<Export>"` imports the namespace and uses its member.
 *   The module is written as given: relative to the output folder, with the extension ESM needs.
 *   It is split from the export at the last `#`, so `#internal/db#Task` works; `\#` is accepted for
 *   graphql-codegen's sake.
 * - Without `#`: a type already in scope of `types.ts` (a schema type, a global, or an expression
 *   of them such as `Omit<Task, "project">`), used as written.
 *
 * An imported name that is already taken in `types.ts` gets the first free number (`Task2`), the
 * rule every generated name follows. Mistakes are errors that name the mapper and the fix.
 */
import { isInputObjectType, isInterfaceType, isObjectType, isScalarType, isUnionType, type GraphQLSchema } from 'graphql';
import { symbol, type ImportSymbol } from '../core/builder/file.js';
import { isIdentifier, pascalCase, safeIdentifier, uniqueName } from '../core/builder/names.js';
import { typesNames } from './names.js';

export interface ResolvedMappers {
  /** The TS type resolvers use for a mapped GraphQL type, else undefined. */
  typeOf(graphqlName: string): string | undefined;
  /** The types the mappers import (from their modules as written) and the local name of each in `types.ts`. */
  imports: Array<{ symbol: ImportSymbol; local: string }>;
}

const NAME = '[A-Za-z_$][A-Za-z0-9_$]*';
/** `Export`, `default`, `Export as Local`, `default as Local`, `Namespace.Export`. */
const IMPORTED = new RegExp(`^(${NAME})(?:\\s+as\\s+(${NAME})|((?:\\.${NAME})+))?$`);
/** A type expression in scope: starts with a name; names, generics, tuples, unions and string literals. */
const IN_SCOPE = new RegExp(`^${NAME}[A-Za-z0-9_$.<>,|&\\[\\] "'-]*$`);

const SYNTAX_HINT =
  'write "<module>#<Export>" (e.g. "../src/db.js#TaskRecord"), "<module>#<Export> as <Local>", ' +
  '"<module>#default", or without "#" the name of a type in scope of types.ts';

function fail(graphqlName: string, problem: string): never {
  throw new Error(`config mappers.${graphqlName}: ${problem}`);
}

/** Schema type names close to `name`: the same in another case, else the nearest few edits away. */
function similar(name: string, candidates: string[]): string[] {
  const lower = name.toLowerCase();
  const sameCase = candidates.filter((candidate) => candidate.toLowerCase() === lower);
  if (sameCase.length) return sameCase;
  const limit = name.length <= 3 ? 1 : 2;
  return candidates
    .map((candidate) => ({ candidate, edits: distance(candidate.toLowerCase(), lower) }))
    .filter(({ edits }) => edits <= limit)
    .sort((a, b) => a.edits - b.edits || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

/**
 * Whether brackets and quotes pair up and spaces only stand beside punctuation, so an in-scope type
 * is one type expression (`Task Record` is not) and cannot run into the next declaration.
 */
function wellFormed(text: string): boolean {
  const bare = text.replace(/"[^"]*"|'[^']*'/g, '""');
  if (/\s/.test(bare.replace(/\s*([<>,|&[\]])\s*/g, '$1'))) return false;
  let angle = 0;
  let square = 0;
  for (const char of bare.replace(/""/g, '')) {
    if (char === '"' || char === "'") return false; // an unclosed quote
    if (char === '<') angle++;
    if (char === '>') angle--;
    if (char === '[') square++;
    if (char === ']') square--;
    if (angle < 0 || square < 0) return false;
  }
  return angle === 0 && square === 0;
}

/** Checks that `graphqlName` is a type a mapper can replace. */
function checkTarget(schema: GraphQLSchema, graphqlName: string): void {
  const type = schema.getType(graphqlName);
  if (!type || graphqlName.startsWith('__')) {
    const candidates = Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__'));
    const close = similar(graphqlName, candidates);
    const hint = close.length ? ` Did you mean ${close.map((name) => `"${name}"`).join(' or ')}?` : '';
    fail(graphqlName, `the schema has no type "${graphqlName}"; keys are GraphQL object, interface or union type names.${hint}`);
  }
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  if (roots.includes(type as never)) {
    fail(
      graphqlName,
      `"${graphqlName}" is a root operation type: its resolvers get no parent value, so there is nothing to map; map the types its fields return instead.`,
    );
  }
  if (isObjectType(type) || isInterfaceType(type) || isUnionType(type)) return;
  const kind = isScalarType(type) ? 'a scalar (map it with `scalars`)' : isInputObjectType(type) ? 'an input type' : 'an enum';
  fail(graphqlName, `"${graphqlName}" is ${kind}; mappers apply to object, interface and union types.`);
}

/**
 * Checks `mappers` against the schema and decides each mapped type's TS type and the imports.
 * Throws an Error naming the mapper for an unknown or unmappable type and for bad syntax.
 */
export function resolveMappers(schema: GraphQLSchema, mappers: Record<string, string> | undefined): ResolvedMappers {
  if (mappers === undefined || mappers === null) return { typeOf: () => undefined, imports: [] };
  if (typeof mappers !== 'object' || Array.isArray(mappers)) {
    throw new Error(
      `config mappers: expected an object from GraphQL type name to mapper, e.g. { Task: "../src/db.js#TaskRecord" }, got ${Array.isArray(mappers) ? 'an array' : typeof mappers}`,
    );
  }
  const taken = new Set(typesNames(schema).taken);
  const types = new Map<string, string>();
  /** module → exported name (`default`, `Task`, ...) → local name. */
  const imports = new Map<string, Map<string, string>>();
  const importAs = (module: string, exported: string, local: string): string => {
    let names = imports.get(module);
    if (!names) imports.set(module, (names = new Map()));
    const existing = names.get(exported);
    if (existing !== undefined) return existing;
    const chosen = uniqueName(safeIdentifier(local) === local ? local : `${local}_`, taken);
    names.set(exported, chosen);
    return chosen;
  };

  // By type name, so the names handed out do not depend on the config's key order.
  for (const graphqlName of Object.keys(mappers).sort()) {
    const mapper: unknown = mappers[graphqlName];
    checkTarget(schema, graphqlName);
    if (typeof mapper !== 'string')
      fail(graphqlName, `expected a string such as "../src/db.js#TaskRecord", got ${mapper === null ? 'null' : typeof mapper}`);
    const text = mapper.trim();
    const split = text.replace(/\\#/g, '\u0000\u0000').lastIndexOf('#');
    if (split < 0) {
      if (!IN_SCOPE.test(text) || !wellFormed(text)) fail(graphqlName, `"${mapper}" is not a mapper: ${SYNTAX_HINT}.`);
      types.set(graphqlName, text);
      continue;
    }
    const module = text.slice(0, split).replace(/\\#/g, '#').trim();
    const spec = text.slice(split + 1).trim();
    const parsed = IMPORTED.exec(spec);
    if (!module || /[\u0000-\u001f]/.test(module) || !parsed) {
      fail(
        graphqlName,
        `"${mapper}" is not a mapper: ${!module ? 'the module before "#" is empty' : `"${spec}" after "#" is not an export name`}; ${SYNTAX_HINT}.`,
      );
    }
    const [, exported, alias, members] = parsed;
    if (members !== undefined) {
      if (exported === 'default') fail(graphqlName, `"${mapper}": a default export has no members; ${SYNTAX_HINT}.`);
      types.set(graphqlName, `${importAs(module, exported, exported)}${members}`);
      continue;
    }
    const local = alias ?? (exported === 'default' ? `${pascalCase(graphqlName)}Mapper` : exported);
    if (!isIdentifier(local)) fail(graphqlName, `"${local}" is not a TypeScript name.`);
    types.set(graphqlName, importAs(module, exported, local));
  }

  const imported = [...imports].flatMap(([module, names]) =>
    [...names].map(([exported, local]) => ({ symbol: symbol(exported, module, { type: true, verbatim: true }), local })),
  );
  return { typeOf: (graphqlName) => types.get(graphqlName), imports: imported };
}
