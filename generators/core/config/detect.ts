/**
 * What kind of schema a file is, from its name and its first bytes: the config uses it when an API
 * has no `style`, and `codegen init` to find and describe the schemas in a project.
 */
import { basename, extname } from 'node:path';
import type { InputStyle } from './input-style.js';
import { readRegular } from '../pipeline/input-files.js';

/** A schema file as `codegen init` sees it. */
export interface DetectedFile {
  /** Absolute path. */
  file: string;
  style: InputStyle;
  /**
   * `schema`: an API definition (an `input`); `documents`: GraphQL operations only (`documents`).
   */
  role: 'schema' | 'documents';
  /** proto: the `package` statement, used to find the include path (`acme/tasks/v1/...` → its root). */
  protoPackage?: string;
  /** proto: whether the file declares a `service` (only those need a server and clients). */
  hasService?: boolean;
  /** GraphQL SDL: custom scalars a user may want to map (`options.scalars`). */
  scalars?: string[];
}

const GRAPHQL_EXTENSIONS = new Set(['.graphql', '.graphqls', '.gql']);
const DOCUMENT_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * The style of an `input` the user named in a config. By extension first; a YAML or JSON document
 * is AsyncAPI when it says so near its top, OpenAPI otherwise (the loader then explains what is
 * wrong with a file that is neither).
 */
export function styleOfInput(file: string): InputStyle | undefined {
  const extension = extname(file).toLowerCase();
  if (GRAPHQL_EXTENSIONS.has(extension)) return 'graphql';
  if (extension === '.proto') return 'proto';
  if (/asyncapi/i.test(basename(file))) return 'asyncapi';
  if (!DOCUMENT_EXTENSIONS.has(extension)) return undefined;
  return documentStyle(readHead(file)) ?? 'openapi';
}

/**
 * Looks at one file for `codegen init`: a schema of a style codegen reads, GraphQL operations, or
 * `undefined` (any other YAML/JSON, source code, ...). Reads at most the file's first 64 KiB.
 */
export function detectFile(file: string): DetectedFile | undefined {
  const extension = extname(file).toLowerCase();
  if (DOCUMENT_EXTENSIONS.has(extension)) {
    const style = documentStyle(readHead(file));
    return style ? { file, style, role: 'schema' } : undefined;
  }
  if (GRAPHQL_EXTENSIONS.has(extension)) return detectGraphQL(file, readHead(file, 1 << 20));
  if (extension === '.proto') return detectProto(file, readHead(file, 1 << 20));
  return undefined;
}

/** A YAML document that indents all of its keys (`---` then `  swagger: "2.0"`): its first key. */
const FIRST_INDENTED_KEY = /^(?:[ \t]*(?:#[^\n]*|---[^\n]*)?\r?\n)*[ \t]+["']?(openapi|swagger|asyncapi)["']?[ \t]*:/;

/** `openapi:`/`swagger:` or `asyncapi:` as a top-level key of a YAML or JSON document. */
function documentStyle(head: string): InputStyle | undefined {
  const text = head.replace(/^\uFEFF/, '');
  const key = /^(?:\s*\{\s*|)["']?(openapi|swagger|asyncapi)["']?\s*:/m.exec(text) ?? FIRST_INDENTED_KEY.exec(text);
  if (!key) return undefined;
  return key[1] === 'asyncapi' ? 'asyncapi' : 'openapi';
}

/**
 * SDL (type definitions) or operations (`query`, `mutation`, `subscription`, `fragment`, or a
 * bare `{ ... }` selection). Comments and strings are removed first so a description that
 * mentions `type` does not count.
 */
function detectGraphQL(file: string, text: string): DetectedFile {
  const code = text
    .replace(/"""[\s\S]*?"""/g, '""')
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
    .replace(/#[^\n]*/g, '');
  const definitions = /^\s*(?:extend\s+)?(schema|scalar|type|interface|union|enum|input|directive)\b/m.test(code);
  const operations = /^\s*(query|mutation|subscription|fragment)\b|^\s*\{/m.test(code);
  if (operations && !definitions) return { file, style: 'graphql', role: 'documents' };
  const scalars = [...code.matchAll(/^\s*scalar\s+([_A-Za-z][_0-9A-Za-z]*)/gm)].map((match) => match[1] as string);
  return { file, style: 'graphql', role: 'schema', scalars: [...new Set(scalars)].sort() };
}

function detectProto(file: string, text: string): DetectedFile {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const protoPackage = /^\s*package\s+([\w.]+)\s*;/m.exec(code)?.[1];
  return { file, style: 'proto', role: 'schema', hasService: /^\s*service\s+\w+/m.test(code), ...(protoPackage ? { protoPackage } : {}) };
}

function readHead(file: string, bytes = 64 * 1024): string {
  // Only the head, and only of a regular file: a device or FIFO is refused by the loader, not read here.
  const read = readRegular(file, Number.MAX_SAFE_INTEGER, bytes);
  return read.ok ? read.text : ''; // A missing or unreadable file is reported by the loader, with a better message.
}
