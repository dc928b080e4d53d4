/**
 * `codegen diff` for GraphQL: graphql-js's findBreakingChanges / findDangerousChanges are the base
 * (the reference implementation's own classification), each located at the element in the new
 * schema (the old one for removals) through the SDL's AST, plus the safe changes graphql-js does
 * not list (types, fields, arguments, enum values added; deprecations). GraphQL has no versions
 * (§9.2), so every breaking change is an error.
 */
import {
  BreakingChangeType,
  DangerousChangeType,
  findBreakingChanges,
  findDangerousChanges,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  type ASTNode,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { SourceLocation } from '../core/diagnostics.js';
import { loadGraphQL } from '../graphql/load.js';
import { CWD_ROOTS, type Change, type DiffResult, type SideRoots } from './changes.js';

export function diffGraphQL(oldFiles: string[], newFiles: string[], roots: SideRoots = CWD_ROOTS()): DiffResult {
  const before = loadGraphQL(oldFiles, [], { displayRoot: roots.old, ...(roots.oldRead ? { readRoots: roots.oldRead } : {}) }).schema;
  const after = loadGraphQL(newFiles, [], { displayRoot: roots.new, ...(roots.newRead ? { readRoots: roots.newRead } : {}) }).schema;
  return { style: 'graphql', changes: compareSchemas(before, after) };
}

const CONSEQUENCES: Record<string, { wire: string; code: string }> = {
  [BreakingChangeType.TYPE_REMOVED]: {
    wire: 'operations naming it fail validation',
    code: 'the generated type is gone; resolvers and operations using it no longer compile',
  },
  [BreakingChangeType.TYPE_CHANGED_KIND]: { wire: 'operations selecting it fail validation', code: 'the generated type changes kind' },
  [BreakingChangeType.TYPE_REMOVED_FROM_UNION]: {
    wire: 'fragments on it in the union never match',
    code: 'the generated union loses a member',
  },
  [BreakingChangeType.VALUE_REMOVED_FROM_ENUM]: {
    wire: 'operations sending it fail validation; results never carry it',
    code: 'the generated enum loses it',
  },
  [BreakingChangeType.REQUIRED_INPUT_FIELD_ADDED]: {
    wire: 'old clients do not send it: variables are rejected',
    code: 'the generated input type requires it',
  },
  [BreakingChangeType.IMPLEMENTED_INTERFACE_REMOVED]: {
    wire: 'fragments on the interface no longer match it',
    code: 'the generated type no longer extends the interface',
  },
  [BreakingChangeType.FIELD_REMOVED]: {
    wire: 'operations selecting it fail validation (the whole operation)',
    code: 'the generated field is gone; operations and resolvers using it no longer compile',
  },
  [BreakingChangeType.FIELD_CHANGED_KIND]: {
    wire: 'old clients read another shape (a nullable field may now be null, a list a value, ...)',
    code: 'the generated field type changes',
  },
  [BreakingChangeType.REQUIRED_ARG_ADDED]: {
    wire: 'operations without the argument fail validation',
    code: 'the generated variables type requires it',
  },
  [BreakingChangeType.ARG_REMOVED]: { wire: 'operations passing it fail validation', code: 'the generated arguments type loses it' },
  [BreakingChangeType.ARG_CHANGED_KIND]: {
    wire: 'variables of the old type fail validation (e.g. a nullable argument made non-null)',
    code: 'the generated arguments type changes',
  },
  [BreakingChangeType.DIRECTIVE_REMOVED]: { wire: 'operations using it fail validation', code: 'unchanged' },
  [BreakingChangeType.DIRECTIVE_ARG_REMOVED]: { wire: 'operations passing it fail validation', code: 'unchanged' },
  [BreakingChangeType.REQUIRED_DIRECTIVE_ARG_ADDED]: {
    wire: 'operations using the directive without it fail validation',
    code: 'unchanged',
  },
  [BreakingChangeType.DIRECTIVE_REPEATABLE_REMOVED]: { wire: 'operations repeating it fail validation', code: 'unchanged' },
  [BreakingChangeType.DIRECTIVE_LOCATION_REMOVED]: { wire: 'operations using it there fail validation', code: 'unchanged' },
  [DangerousChangeType.VALUE_ADDED_TO_ENUM]: {
    wire: 'old clients may receive a value they do not know',
    code: 'the generated enum gains it; exhaustive switches no longer compile',
  },
  [DangerousChangeType.TYPE_ADDED_TO_UNION]: {
    wire: 'old clients may receive a member their fragments do not cover',
    code: 'the generated union gains a member',
  },
  [DangerousChangeType.OPTIONAL_INPUT_FIELD_ADDED]: { wire: 'old clients omit it', code: 'the generated input type gains it' },
  [DangerousChangeType.OPTIONAL_ARG_ADDED]: { wire: 'old clients omit it', code: 'the generated arguments type gains it' },
  [DangerousChangeType.IMPLEMENTED_INTERFACE_ADDED]: {
    wire: 'fragments on the interface now match it too',
    code: 'the generated type extends the interface',
  },
  [DangerousChangeType.ARG_DEFAULT_VALUE_CHANGE]: { wire: 'old clients that omit it get other behaviour', code: 'unchanged' },
};

/**
 * The element a graphql-js change description names, in the `Type.member arg name` form nodeOf
 * reads. The descriptions are fixed sentences (graphql-js utilities/findBreakingChanges.ts).
 */
const DESCRIBED: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^An? (?:optional|required) arg (\w+) on (\w+)\.(\w+)/, (m) => `${m[2]}.${m[3]} arg ${m[1]}`],
  [/^An? (?:optional|required) field (\w+) on input type (\w+)/, (m) => `${m[2]}.${m[1]}`],
  [/^(\w+) was (?:removed from|added to) enum type (\w+)/, (m) => `${m[2]}.${m[1]}`],
  [/^(\w+) was (?:removed from|added to) union type (\w+)/, (m) => `${m[2]}`],
  [/^(\w+)\.(\w+) arg (\w+)/, (m) => `${m[1]}.${m[2]} arg ${m[3]}`],
  [/^(\w+)\.(\w+)/, (m) => `${m[1]}.${m[2]}`],
  [/^(\w+)/, (m) => `${m[1]}`],
];

function locateDescription(description: string, schemas: GraphQLSchema[]): SourceLocation | undefined {
  for (const [pattern, name] of DESCRIBED) {
    const match = pattern.exec(description);
    if (!match) continue;
    for (const schema of schemas) {
      const node = nodeOf(schema, name(match));
      if (node) return locationOf(node);
    }
    return undefined;
  }
  return undefined;
}

function nodeOf(schema: GraphQLSchema, name: string): ASTNode | undefined {
  const directive = schema.getDirective(name);
  if (directive?.astNode) return directive.astNode;
  const [typeAndMember, arg] = name.split(' arg ');
  const [typeName, member] = (typeAndMember ?? '').split('.');
  const type = typeName ? schema.getType(typeName) : undefined;
  if (!type) return undefined;
  if (member === undefined) return type.astNode ?? undefined;
  return memberNode(type, member, arg);
}

function memberNode(type: GraphQLNamedType, member: string, arg: string | undefined): ASTNode | undefined {
  if (isObjectType(type) || isInterfaceType(type)) {
    const field = type.getFields()[member];
    if (!field) return undefined;
    if (arg) return field.args.find((a) => a.name === arg)?.astNode ?? field.astNode ?? undefined;
    return field.astNode ?? undefined;
  }
  if (isInputObjectType(type)) return type.getFields()[member]?.astNode ?? undefined;
  if (isEnumType(type)) return type.getValue(member)?.astNode ?? undefined;
  return type.astNode ?? undefined;
}

function locationOf(node: ASTNode): SourceLocation | undefined {
  const loc = node.loc;
  if (!loc) return undefined;
  const lines = loc.source.body.slice(0, loc.start).split('\n');
  return { file: loc.source.name, line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

const REMOVALS = new Set<string>([
  BreakingChangeType.TYPE_REMOVED,
  BreakingChangeType.FIELD_REMOVED,
  BreakingChangeType.ARG_REMOVED,
  BreakingChangeType.VALUE_REMOVED_FROM_ENUM,
  BreakingChangeType.DIRECTIVE_REMOVED,
  BreakingChangeType.DIRECTIVE_ARG_REMOVED,
  BreakingChangeType.TYPE_REMOVED_FROM_UNION,
  BreakingChangeType.IMPLEMENTED_INTERFACE_REMOVED,
]);

export function compareSchemas(before: GraphQLSchema, after: GraphQLSchema): Change[] {
  const changes: Change[] = [];
  for (const found of findBreakingChanges(before, after)) {
    const consequence = CONSEQUENCES[found.type] ?? {
      wire: 'operations written for the old schema may fail',
      code: 'generated types change',
    };
    // graphql-js's ARG_CHANGED_KIND with a "to non-null" reading gets its own kind: the brief names it.
    const kind =
      found.type === BreakingChangeType.ARG_CHANGED_KIND && /to [^ ]+!\.?$/.test(found.description)
        ? 'arg-made-non-null'
        : kebab(found.type);
    const order = REMOVALS.has(found.type) ? [before, after] : [after, before];
    changes.push({
      kind,
      class: 'breaking',
      message: found.description,
      ...consequence,
      location: locateDescription(found.description, order),
    });
  }
  for (const found of findDangerousChanges(before, after)) {
    const consequence = CONSEQUENCES[found.type] ?? { wire: 'old clients may see other results', code: 'generated types change' };
    changes.push({
      kind: kebab(found.type),
      class: 'dangerous',
      message: found.description,
      ...consequence,
      location: locateDescription(found.description, [after, before]),
    });
  }
  changes.push(...safeChanges(before, after));
  return changes;
}

function kebab(type: string): string {
  return type.toLowerCase().replace(/_/g, '-');
}

/** What graphql-js leaves out because nothing breaks: additions and deprecations, for the full picture. */
function safeChanges(before: GraphQLSchema, after: GraphQLSchema): Change[] {
  const changes: Change[] = [];
  const oldTypes = before.getTypeMap();
  for (const [name, type] of Object.entries(after.getTypeMap())) {
    if (name.startsWith('__')) continue;
    const old = oldTypes[name];
    const at = (node: ASTNode | null | undefined) => (node ? locationOf(node) : undefined);
    if (!old) {
      changes.push({
        kind: 'type-added',
        class: 'safe',
        message: `${name} was added.`,
        wire: 'old clients do not select it',
        code: 'a new generated type',
        location: at(type.astNode),
      });
      continue;
    }
    if ((isObjectType(type) || isInterfaceType(type)) && (isObjectType(old) || isInterfaceType(old))) {
      const oldFields = old.getFields();
      for (const field of Object.values(type.getFields())) {
        const previous = oldFields[field.name];
        if (!previous) {
          changes.push({
            kind: 'field-added',
            class: 'safe',
            message: `${name}.${field.name} was added.`,
            wire: 'old clients do not select it (§9.2)',
            code: 'the generated type gains it; resolvers may need one',
            location: at(field.astNode),
          });
        } else if (!previous.deprecationReason && field.deprecationReason) {
          changes.push({
            kind: 'field-deprecated',
            class: 'safe',
            message: `${name}.${field.name} was deprecated: ${field.deprecationReason}`,
            wire: 'unchanged',
            code: 'the generated field is marked @deprecated',
            location: at(field.astNode),
          });
        }
      }
    }
    if (isEnumType(type) && isEnumType(old)) {
      for (const value of type.getValues()) {
        const previous = old.getValue(value.name);
        if (previous && !previous.deprecationReason && value.deprecationReason) {
          changes.push({
            kind: 'enum-value-deprecated',
            class: 'safe',
            message: `${name}.${value.name} was deprecated: ${value.deprecationReason}`,
            wire: 'unchanged',
            code: 'the generated member is marked @deprecated',
            location: at(value.astNode),
          });
        }
      }
    }
  }
  return changes;
}
