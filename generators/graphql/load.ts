/**
 * Loads a GraphQL API: SDL files into one `GraphQLSchema`, operation documents into
 * graphql-codegen's `DocumentFile`s, each checked with graphql-js and every problem reported as
 * `file:line:col` with a hint. Nothing is generated from input that does not validate.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  GraphQLError,
  Kind,
  Source,
  buildASTSchema,
  parse,
  specifiedRules,
  validate,
  validateSchema,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { validateSDL } from 'graphql/validation/validate.js';
import type { Types } from '@graphql-codegen/plugin-helpers';
import { CodegenError, error, type Diagnostic } from '../core/diagnostics.js';
import { pascalCase } from '../core/builder/names.js';
import { InputFiles, refusalHint } from '../core/pipeline/input-files.js';
import { displayPath } from '../core/pipeline/paths.js';
import { lintSchema } from './lint.js';

export interface GraphQLInput {
  schema: GraphQLSchema;
  documents: Types.DocumentFile[];
  /** The schema files as shown in headers and messages. */
  source: string;
  /** Warnings from the schema lint (unbounded lists, ...): printed, never fatal. */
  warnings: Diagnostic[];
}

export interface LoadOptions {
  /** Folder paths are shown relative to. */
  displayRoot?: string;
  /** Skip SDL validation (needed for schemas with duplicate fields, such as GitHub's). */
  assumeValidSDL?: boolean;
  /** Folders besides each `documents` folder that files found in it may really lie in (symlinks resolved). */
  readRoots?: string[];
  /** Size cap per file in bytes; default 64 MiB. */
  maxInputBytes?: number;
}

const DOCUMENT_EXTENSIONS = /\.(graphql|gql)$/i;

export function loadGraphQL(schemaFiles: string[], documentPaths: string[], options: LoadOptions = {}): GraphQLInput {
  const show = (file: string) => displayPath(file, options.displayRoot);
  // Files the user named are read where they are; files found in a named folder must really be in it.
  const read = (file: string, named: boolean, folders: string[] = []): string => {
    const files = new InputFiles({ roots: [...(options.readRoots ?? []), ...folders], maxBytes: options.maxInputBytes });
    const result = named ? files.readNamed(file) : files.readReached(file);
    if (result.ok) return result.text;
    const hint =
      result.refused === 'outside'
        ? 'a documents folder may hold links only to files inside it or the project; list the file under `documents` by its own path'
        : result.refused
          ? refusalHint(result.refused, files, file, show)
          : 'check the path in your config';
    throw error(`cannot read ${show(file)}: ${result.why}`, undefined, hint);
  };
  const sdl = schemaFiles.map((file) => parseFile(file, show(file), read(file, true)));
  const merged: DocumentNode = { kind: Kind.DOCUMENT, definitions: sdl.flatMap((doc) => doc.definitions) };
  const executable = merged.definitions.filter(isExecutable);
  if (executable.length > 0) {
    throw located(
      [new GraphQLError('operations and fragments belong in `documents`, not in the schema', { nodes: executable[0] })],
      'move them to a .graphql file listed under `documents`',
    );
  }
  if (!options.assumeValidSDL) {
    const problems = validateSDL(merged);
    if (problems.length > 0) throw located(problems, 'fix the schema; for a schema you cannot change, set `options.assumeValidSDL: true`');
  }
  const schema = buildASTSchema(merged, { assumeValidSDL: true });
  // What SDL validation leaves to the built schema: reserved `__` names, interface conformance, ...
  if (!options.assumeValidSDL) {
    const problems = validateSchema(schema);
    if (problems.length > 0) throw located(problems, 'fix the schema');
  }

  const found = expandDocuments(documentPaths);
  const documents = found.files.map(({ file, named }): Types.DocumentFile => {
    const text = read(file, named, found.folders);
    const document = nameAnonymousOperation(parseFile(file, show(file), text), file);
    return { location: show(file), document, rawSDL: text };
  });
  checkDocuments(schema, documents);
  return { schema, documents, source: schemaFiles.map(show).join(', '), warnings: lintSchema(schema) };
}

/**
 * A file holding one anonymous operation (`{ allFilms { ... } }`, common in example folders) gets
 * the file's name: `01_basic_query.graphql` → `Query01BasicQuery`, so it still becomes a typed
 * function. Several anonymous operations in one file are an error graphql-js reports.
 */
function nameAnonymousOperation(document: DocumentNode, file: string): DocumentNode {
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  const [only] = operations;
  if (operations.length !== 1 || only.kind !== Kind.OPERATION_DEFINITION || only.name) return document;
  const stem = pascalCase(basename(file).replace(/\.[^.]+$/, '')).replace(/^_+/, '');
  const name = /^[A-Za-z]/.test(stem) ? stem : `${pascalCase(only.operation)}${stem}`;
  const named = { ...only, name: { kind: Kind.NAME, value: name } } as const;
  return { ...document, definitions: document.definitions.map((definition) => (definition === only ? named : definition)) };
}

function isExecutable(definition: DefinitionNode): boolean {
  return definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION;
}

function parseFile(file: string, shown: string, text: string): DocumentNode {
  try {
    return parse(new Source(text, shown));
  } catch (problem) {
    if (problem instanceof GraphQLError) throw located([problem], 'check the GraphQL syntax at that position');
    throw problem;
  }
}

/**
 * Files as listed (`named`); a folder stands for every `.graphql`/`.gql` file under it, in name
 * order (found, so read only if really inside one of the `folders`).
 */
function expandDocuments(paths: string[]): { files: { file: string; named: boolean }[]; folders: string[] } {
  const folders: string[] = [];
  const files = paths.flatMap((path) => {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      throw error(`cannot read ${displayPath(path)}`, undefined, 'check the `documents` paths in your config');
    }
    if (!stats.isDirectory()) return [{ file: path, named: true }];
    folders.push(path);
    return readdirSync(path, { recursive: true, encoding: 'utf8' })
      .filter((name) => DOCUMENT_EXTENSIONS.test(name))
      .sort()
      .map((name) => ({ file: join(path, name), named: false }));
  });
  return { files, folders };
}

/** Every operation is valid against the schema and has a unique name (it becomes a function). */
function checkDocuments(schema: GraphQLSchema, files: Types.DocumentFile[]): void {
  if (files.length === 0) return;
  const problems: GraphQLError[] = [];
  const all: DocumentNode = { kind: Kind.DOCUMENT, definitions: files.flatMap((file) => file.document?.definitions ?? []) };
  problems.push(...validate(schema, all, specifiedRules));
  const seen = new Set<string>();
  for (const definition of all.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION && !definition.name) {
      problems.push(new GraphQLError('an operation needs a name: it becomes a typed function', { nodes: definition }));
    }
    if (isExecutable(definition) && definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (definition.kind === Kind.OPERATION_DEFINITION && definition.name) {
      const name = definition.name.value;
      if (seen.has(name)) problems.push(new GraphQLError(`two operations are named "${name}"`, { nodes: definition.name }));
      seen.add(name);
    }
  }
  if (problems.length > 0) throw located(problems, 'fix the operation document; it must be valid against the schema');
}

/** graphql-js errors as codegen diagnostics: the source's name is the displayed file path. */
function located(problems: readonly GraphQLError[], hint: string): CodegenError {
  return new CodegenError(
    problems.map((problem) => {
      const where = problem.source && problem.locations?.[0];
      return {
        severity: 'error' as const,
        message: problem.message,
        hint,
        location: where ? { file: problem.source.name, line: where.line, column: where.column } : undefined,
      };
    }),
  );
}
