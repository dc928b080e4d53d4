/**
 * The named schemas of one input: every schema reachable from the document gets one name and is
 * lowered once to JSON Schema 2020-12, and every `$ref` to it becomes `#/$defs/<name>`. Shared by
 * the OpenAPI and AsyncAPI loaders.
 *
 * Naming rules (all names unique; clashes get 2, 3, ... via `uniqueName`):
 * - a component schema keeps its name when it is an identifier starting with a capital letter,
 *   otherwise it is PascalCased (`simple-user` → `SimpleUser`);
 * - a schema referenced from elsewhere (another file, or a non-component place) is named after the
 *   last segment of its pointer (`./problem.yaml#/Problem` → `Problem`), or the file name;
 * - a body written inline is hoisted under the name its caller chooses (`CreateTaskBody`).
 */
import type { JsonSchema, NamedSchema } from './json-schema.js';
import { isIdentifier, pascalCase, safeIdentifier, uniqueName } from '../builder/names.js';
import type { Documents, Path, Problems, Where } from './json-documents.js';
import { at, encodePointer, isObject, locate, locateWhenRead, resolveRef, segments } from './json-documents.js';
import { lowerSchema, type SchemaContext } from './dialect.js';

/** Names every schema reachable from the document and lowers each once. */
export class SchemaRegistry {
  private readonly taken = new Set<string>();
  private readonly byKey = new Map<string, string>();
  private readonly queue: { name: string; value: unknown; where: Where; origin: NamedSchema['origin']; componentKey?: string }[] = [];
  private readonly named: NamedSchema[] = [];
  readonly context: SchemaContext;

  /** `kept`: the previous runs' lowerings (`codegen --watch`). */
  constructor(
    private readonly docs: Documents,
    dialect: '3.0' | '3.1',
    readonly problems: Problems,
    private readonly kept?: KeptLowerings,
  ) {
    this.context = { dialect, problems, refTo: (ref, where) => this.refTo(ref, where) };
  }

  static schemaName(raw: string): string {
    return isIdentifier(raw) && /^[A-Z]/.test(raw) ? safeIdentifier(raw, 'Type') : pascalCase(raw);
  }

  /**
   * Registers the schema at `where` under a name based on `base`; the same place gets one name.
   * `componentKey`: its key under the document's `components.schemas`.
   */
  add(base: string, value: unknown, where: Where, origin: NamedSchema['origin'], componentKey?: string): string {
    const key = `${where.doc.path}#${encodePointer(segments(where.path))}`;
    const known = this.byKey.get(key);
    if (known) return known;
    const name = uniqueName(base, this.taken);
    this.byKey.set(key, name);
    this.queue.push({ name, value, where, origin, ...(componentKey !== undefined && { componentKey }) });
    return name;
  }

  /** Lowers a schema in place (parameters, headers): refs inside it become named schemas. */
  inline(value: unknown, where: Where): JsonSchema {
    return lowerSchema(value, where, this.context);
  }

  /** A body schema: a plain `$ref` stays a ref; anything else is hoisted under `base`. */
  body(value: unknown, where: Where, base: string): JsonSchema {
    if (isObject(value) && typeof value.$ref === 'string' && Object.keys(value).length === 1) return this.inline(value, where);
    return { $ref: `#/$defs/${this.add(base, value, where, 'operation')}` };
  }

  private refTo(ref: string, where: Where): string | undefined {
    const target = resolveRef(this.docs, ref, where, this.problems);
    if (!target) return undefined;
    const known = this.byKey.get(target.key);
    if (known) return `#/$defs/${known}`;
    const parts = segments(target.path);
    const last = parts.length ? parts[parts.length - 1] : target.doc.path.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
    return `#/$defs/${this.add(SchemaRegistry.schemaName(last), target.value, target, 'component')}`;
  }

  /** Lowers everything registered so far (lowering may register more) and checks alias cycles. */
  finish(): NamedSchema[] {
    const whereOf = new Map<string, Where>();
    // Lowering a schema may register more (its refs): the queue grows while it is read.
    for (let i = 0; i < this.queue.length; i++) {
      const item = this.queue[i];
      const schema = this.lower(item.value, item.where);
      if (typeof schema === 'object') locateWhenRead(schema, 'x-location', item.where);
      whereOf.set(item.name, item.where);
      this.named.push({
        name: item.name,
        schema,
        origin: item.origin,
        ...(item.componentKey !== undefined && { componentKey: item.componentKey }),
      });
    }
    this.queue.length = 0;
    this.checkAliasCycles(whereOf);
    return [...this.named].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * `value` lowered, or the previous run's lowering of the same object at the same place when it
   * reported no problem and each reference it made names the same schema again (asked again, in the
   * same order, so names are given as a fresh lowering gives them).
   */
  private lower(value: unknown, where: Where): JsonSchema {
    if (!this.kept || !isObject(value)) return lowerSchema(value, where, this.context);
    const place = `${this.context.dialect} ${where.doc.path}#${encodePointer(segments(where.path))}`;
    const kept = this.kept.get(value, place);
    if (kept?.refs.every(({ ref, path, target }) => this.refTo(ref, { doc: where.doc, path }) === target)) return kept.schema;
    const refs: KeptLowering['refs'] = [];
    let sameDoc = true;
    const refTo = (ref: string, at: Where) => {
      const target = this.refTo(ref, at);
      refs.push({ ref, path: at.path, target });
      sameDoc &&= at.doc === where.doc;
      return target;
    };
    const reported = this.problems.reported;
    const schema = lowerSchema(value, where, { ...this.context, refTo });
    if (sameDoc && this.problems.reported === reported) this.kept.set(value, place, { schema, refs });
    return schema;
  }

  /** `A: {$ref: B}`, `B: {$ref: A}` names no shape at all. */
  private checkAliasCycles(whereOf: Map<string, Where>): void {
    const target = new Map<string, string>();
    for (const { name, schema } of this.named) {
      if (typeof schema !== 'object' || !schema.$ref) continue;
      if (Object.keys(schema).some((key) => key !== '$ref' && key !== 'x-location')) continue;
      target.set(name, schema.$ref.slice('#/$defs/'.length));
    }
    const reported = new Set<string>();
    for (const start of target.keys()) {
      const chain: string[] = [];
      for (let name: string | undefined = start; name !== undefined && target.has(name); name = target.get(name)) {
        if (chain.includes(name)) {
          const cycle = chain.slice(chain.indexOf(name));
          if (!cycle.some((member) => reported.has(member))) {
            cycle.forEach((member) => reported.add(member));
            const first = whereOf.get(cycle[0]);
            this.problems.add(
              `$ref cycle: ${[...cycle, cycle[0]].join(' → ')} never reaches a schema`,
              first ? locate(at(first, '$ref')) : undefined,
              'make one of these schemas an actual schema instead of a reference',
            );
          }
          break;
        }
        chain.push(name);
      }
    }
  }
}

/** One schema's lowering and the references it made, in order, with the names they got. */
interface KeptLowering {
  schema: JsonSchema;
  refs: { ref: string; path: Path | undefined; target: string | undefined }[];
}

/**
 * Lowerings kept by a watch process, by the raw schema object and its place: an edit re-parses
 * only what it changed (json-reparse.ts), so every other schema is the same object as last run.
 * Nothing mutates a lowered schema or a parsed value, so sharing them between runs is safe.
 */
export class KeptLowerings {
  #byValue = new WeakMap<object, Map<string, KeptLowering>>();

  get(value: object, place: string): KeptLowering | undefined {
    return this.#byValue.get(value)?.get(place);
  }

  set(value: object, place: string, lowering: KeptLowering): void {
    let places = this.#byValue.get(value);
    if (!places) this.#byValue.set(value, (places = new Map()));
    places.set(place, lowering);
  }
}
