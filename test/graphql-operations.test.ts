/**
 * `operations.ts` from GraphQL documents: result and variables types per operation, fragment
 * types, typed document constants whose id is the SHA-256 of the exact text sent, and the
 * persisted-operation map. Generated through the real pipeline, type-checked under strict with
 * both compilers together with user code that must compile (and `@ts-expect-error` lines that must
 * not), then imported to check the values.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  Kind,
  parse,
  print,
  stripIgnoredCharacters,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLInterfaceType,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGraphQL } from '../generators/graphql/load.js';
import { plugin as operationsPlugin } from '../generators/graphql/plugins/operations.js';
import { ROOT } from './support/cli.js';
import { anyTypes, transpileFolder, writeFiles } from './support/client-generate.js';
import { generateGraphQLFiles } from './support/generate.js';
import { COMPILERS, typecheck } from './support/typecheck.js';

mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
const BASE = mkdtempSync(join(ROOT, '.vitest-tmp', 'graphql-operations-'));

interface OperationsModule {
  persistedOperations: Record<string, string>;
  [name: string]: unknown;
}

interface TypedOperationValue {
  kind: string;
  name: string;
  id: string;
  document: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Compiler errors (the output of a failing tsc run), one per line. */
function errors(output: string): string[] {
  return output.split('\n').filter((line) => /error TS\d+/.test(line));
}

function expectCompiles(folder: string): void {
  for (const [name, compiler] of Object.entries(COMPILERS)) {
    expect(errors(typecheck(folder, compiler, 'browser').output), name).toEqual([]);
  }
}

/** What the client sends for `name` in `document`: the operation, then its fragments by name, compacted. */
function expectedDocument(document: DocumentNode, name: string): string {
  const operation = document.definitions.find(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.name?.value === name,
  );
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const used = new Set<string>();
  const walk = (text: string): void => {
    for (const [, spread] of text.matchAll(/\.\.\.([_A-Za-z]\w*)/g)) {
      if (fragments.has(spread) && !used.has(spread)) {
        used.add(spread);
        walk(print(fragments.get(spread)!));
      }
    }
  };
  const printed = print(operation!);
  walk(printed);
  return stripIgnoredCharacters([printed, ...[...used].sort().map((fragment) => print(fragments.get(fragment)!))].join('\n'));
}

async function importOperations(folder: string): Promise<OperationsModule> {
  transpileFolder(folder);
  return (await import(pathToFileURL(join(folder, 'operations.js')).href)) as OperationsModule;
}

const TASKS_USAGE = `
import {
  CreateTask, DeleteTask, GetTask, persistedOperations,
  type CreateTaskMutationVariables, type DeleteTaskMutation, type GetTaskQuery, type GetTaskQueryVariables,
  type ProjectTasksQuery, type ProjectTasksQueryVariables, type SearchQuery, type TaskChangedSubscription,
  type TaskFieldsFragment, type TypedOperation, type ViewerQuery, type ViewerQueryVariables,
} from "./operations.js";

export const found: GetTaskQuery = {
  task: {
    id: "t1",
    title: "Write docs",
    status: "IN_PROGRESS",
    createdAt: "2026-11-26T09:30:00Z",
    assignee: { id: "u1", name: "Ada" },
    internalNotes: null,
    project: { id: "p1", name: "Docs" },
  },
};
export const missing: GetTaskQuery = { task: null };
// A result that spreads a fragment is also that fragment's type.
export const fields: TaskFieldsFragment | undefined = found.task ?? undefined;

// @ts-expect-error not a TaskStatus
export const badStatus: GetTaskQuery = { task: { ...found.task!, status: "done" } };
// @ts-expect-error project was selected, so it is required
export const noProject: GetTaskQuery = { task: { id: "t1", title: "x", status: "TODO", createdAt: "", assignee: null, internalNotes: null } };
// @ts-expect-error assignee is nullable, not optional
export const noAssignee: TaskFieldsFragment = { id: "t1", title: "x", status: "TODO", createdAt: "" };
// @ts-expect-error email was not selected
export const extraField: ViewerQuery = { viewer: { id: "u1", name: "Ada", email: "ada@example.com" } };

export function label(item: SearchQuery["search"][number]): string {
  switch (item.__typename) {
    case "Task":
      return \`\${item.title} (\${item.status})\`;
    case "Project":
    case "User":
      return item.name;
  }
}
// Each possible type is its own member: Extract finds it and __typename narrows to it.
type SearchItem = SearchQuery["search"][number];
type UserItem = Extract<SearchItem, { __typename: "User" }>;
export const user: UserItem = { __typename: "User", id: "u1", name: "Ada" };
export const userName = (item: UserItem): string => item.name;
export const userNames = (items: SearchItem[]): string[] =>
  items.filter((item): item is UserItem => item.__typename === "User").map((item) => item.name);
export function projectName(item: SearchItem): string | undefined {
  if (item.__typename !== "Project") return undefined;
  const narrowed: Extract<SearchItem, { __typename: "Project" }> = item;
  return narrowed.name;
}
// @ts-expect-error a User member is not a Project
export const userAsProject: Extract<SearchItem, { __typename: "Project" }> = user;
// @ts-expect-error Extract of an unselected type name is never
export const noComment: Extract<SearchItem, { __typename: "Comment" }> = user;
// @ts-expect-error only tasks have a title
export const projectTitle = (item: SearchQuery["search"][number]) => item.__typename === "Project" && item.title;
// @ts-expect-error not a possible type of SearchResult
export const wrongType: SearchQuery = { search: [{ __typename: "Comment", id: "c1", name: "x" }] };

export const page: ProjectTasksQuery = {
  project: {
    id: "p1",
    name: "Docs",
    tasks: {
      totalCount: 1,
      pageInfo: { hasNextPage: false, endCursor: null },
      edges: [{ cursor: "c1", node: { id: "t1", title: "x", status: "DONE", createdAt: "", assignee: null } }],
    },
  },
};
export const firstCursor: string | undefined = page.project?.tasks.edges[0]?.cursor;

export const deleted: DeleteTaskMutation = { deleted: true };
// @ts-expect-error the alias is the key
export const notAliased: DeleteTaskMutation = { deleteTask: true };

export const event: TaskChangedSubscription = { taskChanged: { kind: "CREATED", task: page.project!.tasks.edges[0]!.node } };
// @ts-expect-error not a TaskChangeKind
export const badKind: TaskChangedSubscription = { taskChanged: { kind: "MOVED", task: event.taskChanged.task } };

export const onlyRequired: ProjectTasksQueryVariables = { projectId: "p1" };
export const all: ProjectTasksQueryVariables = { projectId: "p1", first: 10, after: null, status: "TODO" };
// @ts-expect-error projectId is required
export const noProjectId: ProjectTasksQueryVariables = { first: 10 };
export const none: ViewerQueryVariables = {};
// @ts-expect-error Viewer takes no variables
export const unexpected: ViewerQueryVariables = { id: "x" };
export const input: CreateTaskMutationVariables = { input: { projectId: "p1", title: "Write", status: "TODO" } };
// @ts-expect-error input.title is required
export const noTitle: CreateTaskMutationVariables = { input: { projectId: "p1" } };

export const operation: TypedOperation<GetTaskQuery, GetTaskQueryVariables> = GetTask;
// @ts-expect-error other variables
export const otherVariables: TypedOperation<GetTaskQuery, { taskId: string }> = GetTask;
// @ts-expect-error other result
export const otherResult: TypedOperation<DeleteTaskMutation, GetTaskQueryVariables> = GetTask;
export const kinds: string[] = [GetTask.kind, CreateTask.kind, DeleteTask.kind];
export const texts: string[] = Object.values(persistedOperations);
`;

describe('operations.ts for the Tasks example', () => {
  const folder = join(BASE, 'tasks');
  let text: string;
  let files: Awaited<ReturnType<typeof generateGraphQLFiles>>;

  beforeAll(async () => {
    files = await generateGraphQLFiles('schemas/graphql/tasks.graphql', ['schemas/graphql/operations'], ['types'], {
      scalars: { DateTime: 'string' },
    });
    writeFiles(folder, files);
    writeFileSync(join(folder, 'usage.ts'), TASKS_USAGE);
    text = readFileSync(join(folder, 'operations.ts'), 'utf8');
  });

  it('starts with the header and imports only the enums, inputs and scalars it uses from types.ts', () => {
    expect(text.split('\n')[0]).toBe(
      '// Generated by codegen from schemas/graphql/tasks.graphql. Do not edit: change the schema and run `npx codegen`.',
    );
    expect(text).toContain(
      'import type {\n  CreateTaskInput,\n  DateTime,\n  TaskChangeKind,\n  TaskStatus,\n  UpdateTaskInput,\n} from "./types.js";',
    );
    expect(anyTypes(text)).toEqual([]);
  });

  it('types results from selection sets: nullability, lists, aliases, descriptions', () => {
    expect(text).toContain(
      [
        'export interface GetTaskQuery {',
        '  task: {',
        '    id: string;',
        '    title: string;',
        '    status: TaskStatus;',
        '    createdAt: DateTime;',
        '    /** Who does it; null while unassigned. */',
        '    assignee: {',
        '      id: string;',
        '      name: string;',
        '    } | null;',
        '    /** Private notes, for administrators only. */',
        '    internalNotes: string | null;',
        '    project: {',
        '      id: string;',
        '      name: string;',
        '    };',
        '  } | null;',
        '}',
      ].join('\n'),
    );
    expect(text).toContain(
      'export interface DeleteTaskMutation {\n  /** Delete a task; answers whether it existed. */\n  deleted: boolean;\n}',
    );
    expect(text).toContain('      edges: Array<{\n        cursor: string;\n        node: {\n');
  });

  it('types an abstract field with __typename as one member per possible type, each with its literal', () => {
    expect(text).toContain(
      [
        '  search: Array<',
        '    | {',
        '        __typename: "Project";',
        '        id: string;',
        '        name: string;',
        '      }',
        '    | {',
        '        __typename: "Task";',
        '        id: string;',
        '        title: string;',
        '        status: TaskStatus;',
        '      }',
        '    | {',
        '        __typename: "User";',
        '        id: string;',
        '        name: string;',
        '      }',
        '  >;',
      ].join('\n'),
    );
  });

  it('makes nullable and defaulted variables optional; no variables is an empty record', () => {
    expect(text).toContain(
      [
        'export interface ProjectTasksQueryVariables {',
        '  projectId: string;',
        '  /** Default: `20`. */',
        '  first?: number | null;',
        '  after?: string | null;',
        '  status?: TaskStatus | null;',
        '}',
      ].join('\n'),
    );
    expect(text).toContain('export type ViewerQueryVariables = Record<string, never>;');
  });

  it('compiles under strict with both compilers, with user code, and rejects wrong shapes', () => {
    expectCompiles(folder);
  });

  it('gives each operation its exact text (operation, then used fragments by name) and its SHA-256 id', async () => {
    const module = await importOperations(folder);
    const documents = parse(readFileSync(join(ROOT, 'schemas/graphql/operations/tasks.graphql'), 'utf8'));
    const names = ['Viewer', 'GetTask', 'ProjectTasks', 'Search', 'CreateTask', 'UpdateTask', 'DeleteTask', 'TaskChanged'];
    for (const name of names) {
      const operation = module[name] as TypedOperationValue;
      expect(operation.name).toBe(name);
      expect(operation.document).toBe(expectedDocument(documents, name));
      expect(operation.id).toBe(sha256(operation.document));
      expect(module.persistedOperations[operation.id]).toBe(operation.document);
    }
    expect((module.GetTask as TypedOperationValue).document).toMatch(
      /^query GetTask\(\$id:ID!\)\{task\(id:\$id\)\{[^\n]*\}fragment TaskFields on Task\{id title/,
    );
    expect((module.TaskChanged as TypedOperationValue).kind).toBe('subscription');
    expect((module.DeleteTask as TypedOperationValue).kind).toBe('mutation');
    // Ordered by operation name, so adding an operation changes one line.
    expect(Object.values(module.persistedOperations).map((document) => /^\w+ (\w+)/.exec(document)![1])).toEqual([...names].sort());
  });

  it('is deterministic', async () => {
    const again = await generateGraphQLFiles('schemas/graphql/tasks.graphql', ['schemas/graphql/operations'], ['types'], {
      scalars: { DateTime: 'string' },
    });
    expect(again.find((file) => file.path === 'operations.ts')!.content).toBe(text);
  });
});

/** A schema built to be awkward: interfaces implementing interfaces, unions, nested lists, hostile text, names that clash. */
const TRICKY_SCHEMA = `
"""
Closes comments */ and opens template literals \`\${globalThis.process.exit()}\` on purpose.
"""
scalar JSON

"Clashes with the name of the interface operations.ts declares."
enum TypedOperation {
  QUERY
  MUTATION
}

"Has a name. */ export const pwned = 1; /*"
interface Animal {
  "The name, with \`backticks\` and \${interpolation}."
  name: String!
}

interface Pet implements Animal {
  name: String!
  owner: Person
}

type Dog implements Animal & Pet {
  name: String!
  barks: Boolean!
  owner: Person
  tags: [[String!]]!
  matrix: [[Int]]
}

type Cat implements Animal & Pet {
  name: String!
  lives: Int!
  owner: Person
}

type Bird implements Animal {
  name: String!
  wingspan: Float
}

type Person {
  id: ID!
  name: String!
  pets: [Pet!]!
  kind: TypedOperation!
  data: JSON
  oldName: String @deprecated(reason: "use \`name\` */ instead")
}

union Thing = Dog | Cat | Person

input Filter {
  kind: TypedOperation
  limit: Int = 10
  nested: [Filter!]
}

type Query {
  animals: [Animal!]!
  thing(id: ID!): Thing
  person(id: ID!): Person
  echo(text: String!): String!
}

type Mutation {
  save(filter: Filter!, ids: [ID!]): Int
}
`;

const TRICKY_DOCUMENTS = `
fragment PetFields on Pet {
  name
  owner {
    id
  }
}

fragment AnimalBits on Animal {
  __typename
  name
  ...PetFields
}

query Animals($withOwner: Boolean!, $skipName: Boolean = false) {
  animals {
    ...AnimalBits
    ... on Dog {
      barks
      tags
      matrix
      owner @include(if: $withOwner) {
        name
      }
    }
    ... on Cat @include(if: $withOwner) {
      lives
    }
    nick: name @skip(if: $skipName)
  }
}

query Thing($id: ID!) {
  thing(id: $id) {
    __typename
    ... on Dog {
      name
    }
    ... on Cat {
      name
    }
  }
  alsoThing: thing(id: $id) {
    ... on Person {
      id
      kind
      data
      oldName
      pets {
        ...PetFields
      }
    }
  }
}

query Hostile {
  echo(text: "\`\${globalThis.process.exit()}\` */ \\" \\\\ \\u2028 end")
}

mutation Save($filter: Filter!, $ids: [ID!]) {
  save(filter: $filter, ids: $ids)
}
`;

const TRICKY_USAGE = `
import type { AnimalsQuery, AnimalsQueryVariables, SaveMutationVariables, ThingQuery, AnimalBitsFragment } from "./operations.js";
import { Hostile } from "./operations.js";

type Animal = AnimalsQuery["animals"][number];

export const dog: Animal = {
  __typename: "Dog",
  name: "Rex",
  owner: { id: "p1", name: "Ada" },
  barks: true,
  tags: [["good", "boy"], []],
  matrix: [[1, null], null],
  nick: "R",
};
// nick is under @skip: it may be absent. owner is selected unconditionally too, so it is not.
export const quietDog: Animal = { __typename: "Dog", name: "Rex", owner: null, barks: false, tags: [], matrix: null };
// @ts-expect-error owner is also selected without a condition (by PetFields)
export const noOwner: Animal = { __typename: "Dog", name: "Rex", barks: false, tags: [], matrix: null };
export const cat: Animal = { __typename: "Cat", name: "Tom", owner: { id: "p1" }, lives: 9 };
// lives is in an inline fragment under @include.
export const catWithoutLives: Animal = { __typename: "Cat", name: "Tom", owner: null };
export const bird: Animal = { __typename: "Bird", name: "Tweety" };
// @ts-expect-error a bird is not a pet: no owner selected
export const birdWithOwner: Animal = { __typename: "Bird", name: "Tweety", owner: null };
// @ts-expect-error a cat's owner selects id only
export const catOwnerName: Animal = { __typename: "Cat", name: "Tom", owner: { id: "p1", name: "Ada" }, lives: 9 };
// @ts-expect-error tags is a list of lists of strings
export const flatTags: Animal = { __typename: "Dog", name: "Rex", owner: null, barks: true, tags: ["good"], matrix: null };
// @ts-expect-error the inner lists hold non-null strings
export const nullTag: Animal = { __typename: "Dog", name: "Rex", owner: null, barks: true, tags: [[null]], matrix: null };
export const bits: AnimalBitsFragment = bird;

export function describe(animal: Animal): string {
  if (animal.__typename === "Dog") return \`\${animal.name} \${animal.barks} \${animal.owner?.id}\`;
  if (animal.__typename === "Cat") return String(animal.lives);
  // @ts-expect-error birds have no owner in this selection
  return animal.owner;
}

export const dogOrCat: ThingQuery = { thing: { __typename: "Cat", name: "Tom" }, alsoThing: null };
export const catName = (thing: Extract<NonNullable<ThingQuery["thing"]>, { __typename: "Cat" }>): string => thing.name;
export const person: ThingQuery = {
  thing: { __typename: "Person" },
  alsoThing: { id: "p1", kind: "QUERY", data: { any: "json" }, oldName: null, pets: [{ name: "Rex", owner: null }] },
};
// @ts-expect-error a person was selected without name
export const personName: ThingQuery = { thing: { __typename: "Person", name: "Ada" }, alsoThing: null };
// A Dog or Cat answers alsoThing with {}; the Person member is the one with fields.
type PersonShape = Extract<NonNullable<ThingQuery["alsoThing"]>, { id: string }>;
export const personKind = (thing: ThingQuery["alsoThing"]) => (thing && "id" in thing ? thing.kind : undefined);
// @ts-expect-error not a TypedOperation enum value
export const badKind: PersonShape = { id: "p1", kind: "SUBSCRIPTION", data: null, oldName: null, pets: [] };
// @ts-expect-error without narrowing, a Dog's {} has no id
export const unnarrowed = (thing: NonNullable<ThingQuery["alsoThing"]>) => thing.id;

export const needed: AnimalsQueryVariables = { withOwner: true };
// @ts-expect-error withOwner is required
export const notNeeded: AnimalsQueryVariables = { skipName: true };
export const save: SaveMutationVariables = { filter: { kind: "MUTATION", nested: [{ limit: 1 }] }, ids: null };
export const hostileText: string = Hostile.document;
`;

describe('operations.ts for tricky documents', () => {
  const folder = join(BASE, 'tricky');
  let text: string;

  beforeAll(async () => {
    const input = join(BASE, 'tricky-input');
    mkdirSync(join(input, 'operations'), { recursive: true });
    writeFileSync(join(input, 'schema.graphql'), TRICKY_SCHEMA);
    writeFileSync(join(input, 'operations', 'tricky.graphql'), TRICKY_DOCUMENTS);
    const files = await generateGraphQLFiles(join(input, 'schema.graphql'), [join(input, 'operations')], ['types'], {
      scalars: { JSON: 'unknown' },
    });
    writeFiles(folder, files);
    writeFileSync(join(folder, 'usage.ts'), TRICKY_USAGE);
    text = readFileSync(join(folder, 'operations.ts'), 'utf8');
  });

  it('imports a schema type that clashes with its own names under another name', () => {
    expect(text).toContain('import type { Filter, JSON, TypedOperation as TypedOperationType } from "./types.js";\n');
    expect(text).toContain('kind: TypedOperationType;');
  });

  it('writes one union member per possible type when __typename is selected, and merges the same shapes without it', () => {
    expect(text).toContain('        __typename: "Cat";\n        name: string;\n');
    expect(text).toContain('        __typename: "Dog";\n        name: string;\n');
    expect(text).not.toMatch(/__typename: "\w+" \|/);
    expect(text).toContain('        __typename: "Person";\n      }\n');
    expect(text).toContain('        __typename: "Bird";\n        name: string;\n        nick?: string;\n      }');
    // Fields of types the selection does not reach are empty shapes, not invented fields.
    expect(text).toContain('  alsoThing:\n    | {}\n    | {\n        id: string;');
  });

  it('marks @include/@skip fields optional and keeps nested lists and nullability', () => {
    // owner is under @include in one place and unconditional in another: it is always there.
    expect(text).toContain('        owner: {\n          id: string;\n          name: string;\n        } | null;\n');
    expect(text).toContain('        lives?: number;\n        nick?: string;\n');
    expect(text).toContain('        tags: Array<string[] | null>;\n        matrix: Array<Array<number | null> | null> | null;\n');
  });

  it('escapes descriptions, deprecations and document strings', async () => {
    expect(text).not.toContain('*/ export const pwned');
    expect(text).toContain('@deprecated use `name` *\\/ instead');
    const module = await importOperations(folder);
    const hostile = module.Hostile as TypedOperationValue;
    expect(hostile.document).toBe(expectedDocument(parse(TRICKY_DOCUMENTS), 'Hostile'));
    expect(hostile.document).toContain('`${globalThis.process.exit()}` */ \\" \\\\ \u2028 end');
    // A raw U+2028 would end a line inside a string literal in older engines: it is escaped.
    expect(text).not.toContain('\u2028');
    expect(hostile.id).toBe(sha256(hostile.document));
    expect(module.persistedOperations[hostile.id]).toBe(hostile.document);
    expect(Object.keys(module)).not.toContain('pwned');
  });

  it('compiles under strict with both compilers, with user code, and rejects wrong shapes', () => {
    expect(anyTypes(text)).toEqual([]);
    expectCompiles(folder);
  });
});

describe("operations on GitHub's schema", () => {
  it('types a query on a huge interface (Node) with one member per possible type, each with its literal', async () => {
    const folder = join(BASE, 'github');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'node.graphql'),
      [
        'query Node($id: ID!) {',
        '  node(id: $id) {',
        '    __typename',
        '    id',
        '    ... on Repository { name stargazerCount owner { login } }',
        '    ... on Issue { title number }',
        '  }',
        '}',
      ].join('\n'),
    );
    const input = loadGraphQL([join(ROOT, 'node_modules/@octokit/graphql-schema/schema.graphql')], [join(folder, 'node.graphql')], {
      assumeValidSDL: true,
    });
    const text = await operationsPlugin(input.schema, input.documents, { source: 'github' }, { outputFile: 'operations.ts' });
    const result = /export interface NodeQuery \{[\s\S]*?\n\}\n/.exec(text as string)![0];
    const nodeTypes = input.schema
      .getPossibleTypes(input.schema.getType('Node') as GraphQLInterfaceType)
      .map((type) => type.name)
      .sort();
    expect(nodeTypes.length).toBeGreaterThan(200);
    expect(result.match(/^ {4}\| \{$/gm)).toHaveLength(nodeTypes.length);
    expect([...result.matchAll(/^ {8}__typename: "(\w+)";$/gm)].map((match) => match[1])).toEqual(nodeTypes);
    const undocumented = result.replace(/^ *\/\*\*.*\*\/\n/gm, '');
    expect(undocumented).toContain(
      '        __typename: "Repository";\n        id: string;\n        name: string;\n        stargazerCount: number;\n        owner: {\n          login: string;\n        };',
    );
    expect(undocumented).toContain('        __typename: "Issue";\n        id: string;\n        title: string;\n        number: number;\n');
    expect(undocumented).toContain('        __typename: "App";\n        id: string;\n      }');
    // Each member carries its own type's descriptions.
    expect(result).toContain('        /** The Node ID of the Repository object */\n        id: string;');
    expect(result).toContain('        __typename: "App";\n        /** The Node ID of the App object */\n        id: string;');
  });
});
