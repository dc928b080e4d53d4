/**
 * The AsyncAPI (SSE/WebSocket) lint context: the realtime model the generator reads (channels,
 * messages per direction, payload schemas, with locations) beside the raw document, where
 * `x-codegen-lint-disable: [rule-id]` on a node silences the rule for it and everything under it,
 * and where `security` is read (the model keeps none).
 */
import { dirname, resolve } from 'node:path';
import { CodegenError, type SourceLocation } from '../core/diagnostics.js';
import { Documents, own, type SourceDoc } from '../core/schema/json-documents.js';
import { InputFiles } from '../core/pipeline/input-files.js';
import type { JsonSchema } from '../core/schema/json-schema.js';
import { loadAsyncApi } from '../asyncapi/load.js';
import type { RealtimeModel } from '../asyncapi/model.js';
import { DISABLE_KEY, LintContextBase } from './context.js';

export interface AsyncApiLoadOptions {
  displayRoot: string;
  readRoots?: string[];
  maxInputBytes?: number | undefined;
}

export class AsyncApiContext extends LintContextBase {
  readonly style = 'asyncapi';

  private constructor(
    readonly model: RealtimeModel,
    readonly root: SourceDoc,
  ) {
    super();
  }

  static async load(file: string, options: AsyncApiLoadOptions): Promise<AsyncApiContext> {
    const readRoots = options.readRoots ?? [dirname(resolve(file))];
    const model = await loadAsyncApi(file, {
      displayRoot: options.displayRoot,
      readRoots,
      ...(options.maxInputBytes !== undefined ? { maxInputBytes: options.maxInputBytes } : {}),
    });
    const docs = new Documents(resolve(options.displayRoot), new InputFiles({ roots: readRoots, maxBytes: options.maxInputBytes }));
    const root = docs.open(resolve(file));
    if (Array.isArray(root)) throw new CodegenError(root);
    return new AsyncApiContext(model, root);
  }

  /** Reports at `location`; `scope` is the raw node (e.g. `['channels', 'chat']`) whose suppressions apply. */
  report(location: SourceLocation, message: string, scope: string[]): void {
    this.push(message, location, this.disabledAt(scope));
  }

  /** The raw node at `pointer` in the root document. */
  raw(pointer: string[]): unknown {
    let node: unknown = this.root.data;
    for (const key of pointer) node = Array.isArray(node) ? node[Number(key)] : own(node, key);
    return node;
  }

  /** A named payload schema, `$ref`s to named schemas followed. */
  schema(value: JsonSchema | undefined): JsonSchema | undefined {
    let current = value;
    for (let depth = 0; depth < 8 && typeof current === 'object' && current.$ref?.startsWith('#/$defs/'); depth++) {
      const name = current.$ref.slice('#/$defs/'.length);
      current = this.model.schemas.find((named) => named.name === name)?.schema;
    }
    return current;
  }

  /** Ids listed by `x-codegen-lint-disable` on the nodes along `scope`, local `$ref`s followed (a channel's message is often a reference to `components.messages`). */
  private disabledAt(scope: string[]): string[] {
    const ids: string[] = [];
    const collect = (node: unknown) => {
      const listed = own(node, DISABLE_KEY);
      if (typeof listed === 'string') ids.push(listed);
      else if (Array.isArray(listed)) ids.push(...listed.filter((id): id is string => typeof id === 'string'));
    };
    let node: unknown = this.root.data;
    collect(node);
    for (const key of scope) {
      node = Array.isArray(node) ? node[Number(key)] : own(node, key);
      for (let hops = 0; hops < 8; hops++) {
        const ref = own(node, '$ref');
        if (typeof ref !== 'string' || !ref.startsWith('#/')) break;
        collect(node);
        node = this.raw(
          ref
            .slice(2)
            .split('/')
            .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')),
        );
      }
      if (node === undefined) break;
      collect(node);
    }
    return ids;
  }
}
