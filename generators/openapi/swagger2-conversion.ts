/**
 * The converter's shared state for Swagger 2.0 (swagger2.ts): the source map, which remembers for
 * each node it writes where in the 2.0 files it came from, the converted document that answers
 * `locate` with those places, references, and Schema Objects.
 *
 * References: `#/definitions/X` becomes `#/components/schemas/X` and `#/responses/X`
 * `#/components/responses/X`. Anything else a `$ref` reaches (another file, or a place outside those
 * sections) is converted in the role it is referenced in and placed under `x-codegen-swagger2/<n>/`
 * keyed by the target's last pointer segment, so the lowering names it as it would name the same
 * reference in a 3.x document.
 */
import type { SourceLocation } from '../core/diagnostics.js';
import type { Documents, Path, Problems, SourceDoc, Where } from '../core/schema/json-documents.js';
import {
  at,
  closest,
  describe,
  encodePointer,
  isObject,
  locate,
  own,
  resolveRef,
  segments,
  setOwn,
} from '../core/schema/json-documents.js';

/** Where referenced things that have no 3.x section of their own are placed in the converted document. */
export const HOISTED = 'x-codegen-swagger2';

export type Role = 'schema' | 'response';

/** As deep as the 3.x lowering reads (core/schema/dialect.ts). */
const MAX_DEPTH = 256;

/** The converted document: 3.0 data, 2.0 positions. */
class ConvertedDoc implements SourceDoc {
  readonly path: string;
  readonly display: string;

  constructor(
    private readonly source: SourceDoc,
    readonly data: Record<string, unknown>,
    private readonly origins: WeakMap<object, Where>,
  ) {
    this.path = source.path;
    this.display = source.display;
  }

  /** Walks the converted data; the deepest node with a known origin, plus the keys after it, is looked up in its source. */
  locate(pointer: Path | string[] | undefined, part: 'key' | 'value' = 'value'): SourceLocation {
    const parts = Array.isArray(pointer) ? pointer : segments(pointer);
    let base: Where = { doc: this.source, path: undefined };
    let rest: string[] = [];
    let node: unknown = this.data;
    for (const part of parts) {
      node = Array.isArray(node) ? node[Number(part)] : own(node, part);
      const origin = node !== null && typeof node === 'object' ? this.origins.get(node) : undefined;
      if (origin) {
        base = origin;
        rest = [];
      } else rest.push(part);
    }
    return base.doc.locate([...segments(base.path), ...rest], part);
  }
}

/** A `#/...` reference to `parts`; `%` is escaped because references are percent-decoded when read. */
function pointerTo(parts: string[]): string {
  return `#${encodePointer(parts.map((part) => part.replace(/%/g, '%25')))}`;
}

/** What the converters of schemas, operations and responses share: the source map and the references. */
export class Conversion {
  readonly origins = new WeakMap<object, Where>();
  private readonly hoisted: Record<string, unknown> = {};
  private readonly hoistedAt = new Map<string, string>();
  private count = 0;
  private depth = 0;

  constructor(
    readonly docs: Documents,
    readonly root: SourceDoc,
    readonly problems: Problems,
  ) {}

  /** Records that `value` (written by the converter) stands for what is at `where` in a source file. */
  node<T extends object>(value: T, where: Where): T {
    this.origins.set(value, where);
    return value;
  }

  /** The converted document. */
  finish(data: Record<string, unknown>): SourceDoc {
    if (this.count > 0) data[HOISTED] = this.hoisted;
    return new ConvertedDoc(this.root, data, this.origins);
  }

  /**
   * The 3.x reference for a 2.0 `$ref` written at `refAt`, for a thing in `role`; undefined (a
   * located problem reported) when it points to nothing.
   */
  reference(ref: unknown, refAt: Where, role: Role): string | undefined {
    if (typeof ref !== 'string') {
      this.problems.add(
        `"$ref" must be a string, not ${describe(ref)}`,
        locate(refAt),
        'write the reference as a string, e.g. "#/definitions/Pet"',
      );
      return undefined;
    }
    const target = resolveRef(this.docs, ref, refAt, this.problems);
    if (!target) return undefined;
    const parts = segments(target.path);
    const section = role === 'schema' ? 'definitions' : 'responses';
    if (target.doc === this.root && parts.length >= 2 && parts[0] === section) {
      return pointerTo(['components', role === 'schema' ? 'schemas' : 'responses', ...parts.slice(1)]);
    }
    if (role === 'response' && target.doc === this.root && parts[0] === 'definitions') {
      this.problems.add(
        `a response $ref must point to a response, not to the schema "${ref}"`,
        locate(refAt),
        `write { description: ..., schema: { $ref: "${ref}" } }`,
      );
      return undefined;
    }
    const key = `${role} ${target.key}`;
    const known = this.hoistedAt.get(key);
    if (known) return known;
    const name = parts.length ? parts[parts.length - 1] : target.doc.path.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
    const slot: Record<string, unknown> = {};
    setOwn(this.hoisted, String(this.count), slot);
    const pointer = pointerTo([HOISTED, String(this.count++), name]);
    this.hoistedAt.set(key, pointer);
    setOwn(slot, name, role === 'schema' ? this.schema(target.value, target) : this.response(target.value, target));
    return pointer;
  }

  /** Set by the operations converter: a response needs the document's `produces`. */
  response: (value: unknown, where: Where) => unknown = () => ({});

  /**
   * A 2.0 Schema Object as 3.0: `x-nullable` → `nullable`, a string `discriminator` →
   * `{ propertyName }`, `type: file` → a binary string, references rewritten. Wrong values pass
   * through for the 3.x lowering to report (at their 2.0 position).
   */
  schema(raw: unknown, where: Where): unknown {
    if (!isObject(raw)) return raw;
    // A YAML alias can make a schema contain itself: past any real depth it is handed on as written,
    // and the 3.x lowering's own depth limit reports it.
    if (this.depth >= MAX_DEPTH) return raw;
    this.depth++;
    try {
      return this.schemaObject(raw, where);
    } finally {
      this.depth--;
    }
  }

  private schemaObject(raw: Record<string, unknown>, where: Where): Record<string, unknown> {
    const out = this.node<Record<string, unknown>>({}, where);
    for (const key of Object.keys(raw)) {
      const value = raw[key];
      const valueAt = at(where, key);
      switch (key) {
        case '$ref': {
          const ref = this.reference(value, valueAt, 'schema');
          if (ref !== undefined) out.$ref = ref;
          break;
        }
        case 'x-nullable':
          if (typeof value === 'boolean') out.nullable = value;
          else
            this.problems.add(
              `"x-nullable" must be true or false, not ${describe(value)}`,
              locate(valueAt),
              'write true or false without quotes',
            );
          break;
        case 'discriminator':
          out.discriminator = typeof value === 'string' ? this.node({ propertyName: value }, valueAt) : value;
          break;
        case 'items':
          out.items = Array.isArray(value)
            ? this.node(
                value.map((item, i) => this.schema(item, at(valueAt, i))),
                valueAt,
              )
            : this.schema(value, valueAt);
          break;
        case 'additionalProperties':
        case 'not':
          out[key] = this.schema(value, valueAt);
          break;
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
        case 'x-anyOf':
        case 'x-oneOf':
          // One schema where a list belongs is converted too: the 3.x reading may take it as a list of one.
          out[key.replace(/^x-/, '')] = Array.isArray(value)
            ? this.node(
                value.map((item, i) => this.schema(item, at(valueAt, i))),
                valueAt,
              )
            : this.schema(value, valueAt);
          break;
        case 'properties':
          out.properties = isObject(value) ? this.map(value, valueAt, (item, itemAt) => this.schema(item, itemAt)) : value;
          break;
        default:
          if (!key.startsWith('x-')) setOwn(out, key, value);
      }
    }
    if (raw.type === 'file') {
      out.type = 'string';
      out.format = 'binary';
    }
    return out;
  }

  /**
   * A list of security requirements, each scheme checked against `securityDefinitions` here (the
   * 3.x lowering would name components.securitySchemes); unknown ones are left out once reported.
   */
  security(value: unknown, where: Where): unknown {
    if (!Array.isArray(value)) return value;
    const defined = isObject(own(this.root.data, 'securityDefinitions'))
      ? Object.keys(own(this.root.data, 'securityDefinitions') as object)
      : [];
    return this.node(
      value.map((requirement, i) => {
        const requirementAt = at(where, i);
        if (!isObject(requirement)) return requirement;
        const out = this.node<Record<string, unknown>>({}, requirementAt);
        for (const name of Object.keys(requirement)) {
          if (defined.includes(name)) setOwn(out, name, requirement[name]);
          else {
            const near = closest(name, defined);
            this.problems.add(
              `security scheme "${name}" is not defined in securityDefinitions`,
              locate(at(requirementAt, name), 'key'),
              near ? `did you mean "${near}"?` : 'declare it under securityDefinitions',
            );
          }
        }
        return out;
      }),
      where,
    );
  }

  /** Converts each value of a map, keeping its keys (and `__proto__` as a key). */
  map(value: Record<string, unknown>, where: Where, convert: (item: unknown, itemAt: Where) => unknown): Record<string, unknown> {
    const out = this.node<Record<string, unknown>>({}, where);
    for (const name of Object.keys(value)) setOwn(out, name, convert(value[name], at(where, name)));
    return out;
  }
}
