/**
 * The REST lint context: the OpenAPI document as the generator reads it (the model: merged
 * parameters, sorted responses, security) beside the raw document, so a rule decides on the model
 * and reports at the exact node of the raw one. A node carrying `x-codegen-lint-disable: [rule-id]`
 * silences that rule for itself and everything under it.
 */
import { dirname, resolve } from 'node:path';
import type { ApiModel, Operation } from '../openapi/model.js';
import {
  child,
  deref,
  Documents,
  isObject,
  locate,
  own,
  Problems,
  segments,
  type SourceDoc,
  type Where,
} from '../core/schema/json-documents.js';
import { CodegenError } from '../core/diagnostics.js';
import { InputFiles } from '../core/pipeline/input-files.js';
import { loadOpenApi } from '../openapi/load.js';
import { collectOperations } from '../openapi/path-items.js';
import { convertSwagger2, isSwagger } from '../openapi/swagger2.js';
import { DISABLE_KEY, LintContextBase } from './context.js';

export interface RestOperation {
  /** The lowered operation: what the generated client and server do. */
  model: Operation;
  /** The operation object as written, and where. */
  raw: Record<string, unknown>;
  where: Where;
}

export interface RestLoadOptions {
  displayRoot: string;
  readRoots?: string[];
  maxInputBytes?: number | undefined;
}

export class RestContext extends LintContextBase {
  readonly style = 'openapi';

  private constructor(
    readonly model: ApiModel,
    readonly root: SourceDoc,
    readonly docs: Documents,
    readonly operations: RestOperation[],
  ) {
    super();
  }

  static async load(file: string, options: RestLoadOptions): Promise<RestContext> {
    const readRoots = options.readRoots ?? [dirname(resolve(file))];
    // The model first: a document the generator refuses is reported as it would be by `codegen`.
    const model = await loadOpenApi(file, { displayRoot: options.displayRoot, readRoots, maxInputBytes: options.maxInputBytes });
    const docs = new Documents(resolve(options.displayRoot), new InputFiles({ roots: readRoots, maxBytes: options.maxInputBytes }), {
      lenientYaml: true,
    });
    const opened = docs.open(resolve(file));
    if (Array.isArray(opened)) throw new CodegenError(opened);
    const problems = new Problems(true);
    const root = isSwagger(opened.data) ? convertSwagger2(opened, docs, problems) : opened;
    // collectOperations is the loader's own walk: its order is the model's order.
    const raw = collectOperations(root, docs, problems);
    const operations = model.operations.map((operation, i) => ({
      model: operation,
      raw: raw[i]?.raw ?? {},
      where: raw[i]?.where ?? { doc: root, path: undefined },
    }));
    return new RestContext(model, root, docs, operations);
  }

  /** Reports at `where` (its key by default, the value with `part: 'value'`). */
  report(where: Where, message: string, part: 'key' | 'value' = 'key'): void {
    this.push(message, locate(where, part), this.disabledAt(where));
  }

  at(where: Where, ...keys: (string | number)[]): Where {
    let path = where.path;
    for (const key of keys) path = child(path, key);
    return { doc: where.doc, path };
  }

  /** The path key an operation is written under (`/tasks/{id}`). */
  pathKey(operation: RestOperation): Where {
    return { doc: operation.where.doc, path: operation.where.path?.parent };
  }

  /** A member of `value` with `$ref`s followed, and where it is. */
  member(value: unknown, where: Where, key: string): { value: unknown; where: Where } | undefined {
    const found = own(value, key);
    if (found === undefined) return undefined;
    return deref(this.docs, found, this.at(where, key), new Problems(true));
  }

  /** The value at `where` in its document. */
  valueAt(where: Where): unknown {
    let node: unknown = where.doc.data;
    for (const key of segments(where.path)) node = Array.isArray(node) ? node[Number(key)] : own(node, key);
    return node;
  }

  /** Rule ids `x-codegen-lint-disable` names on the node at `where` or any node above it. */
  private disabledAt(where: Where): string[] {
    const ids: string[] = [];
    let node: unknown = where.doc.data;
    const collect = (value: unknown) => {
      const listed = own(value, DISABLE_KEY);
      if (typeof listed === 'string') ids.push(listed);
      else if (Array.isArray(listed)) ids.push(...listed.filter((id): id is string => typeof id === 'string'));
    };
    collect(node);
    for (const key of segments(where.path)) {
      node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? own(node, key) : undefined;
      if (node === undefined) break;
      collect(node);
    }
    return ids;
  }
}
