/**
 * The TypeScript types of proto fields, as protobuf-es types them: the message shape (`bigint`
 * for 64-bit integers, `Uint8Array` for bytes, wrappers unwrapped outside oneofs, `{ [key]: V }`
 * for maps) and, for `*Json` types, the proto3 JSON mapping (64-bit integers and bytes as strings).
 */
import { ScalarType } from '@bufbuild/protobuf';
import type { DescEnum, DescExtension, DescField, DescFile, DescMessage } from '@bufbuild/protobuf';
import { isWrapperDesc } from '@bufbuild/protobuf/wkt';
import { symbol, typeSymbol, type FileBuilder } from '../core/builder/file.js';
import { jsonTypeName, messageTypeName, pbModule, schemaName } from './names.js';

/**
 * Resolves references from one generated module to shapes, schemas and JSON types anywhere: a name
 * of another module is imported through the file's builder, which answers with its local name.
 */
export class References {
  constructor(
    readonly file: DescFile,
    private readonly builder: FileBuilder,
    private readonly generated: ReadonlySet<string>,
  ) {}

  private ref(desc: DescMessage | DescEnum | DescFile, name: string, value: boolean): string {
    const file = desc.kind === 'file' ? desc : desc.file;
    if (file === this.file) return name;
    return this.builder.use(symbol(name, pbModule(file, this.generated), { type: !value }));
  }

  shape(desc: DescMessage | DescEnum): string {
    return this.ref(desc, messageTypeName(desc), false);
  }

  json(desc: DescMessage | DescEnum): string {
    return this.ref(desc, jsonTypeName(desc), false);
  }

  /** A schema used in a type position (`typeof TaskSchema`). */
  schemaType(desc: DescMessage | DescEnum): string {
    return this.ref(desc, schemaName(desc), false);
  }

  /** A `file_*` constant used as a value (the dependencies of `fileDesc`). */
  fileValue(file: DescFile, name: string): string {
    return this.ref(file, name, true);
  }

  /** Something from @bufbuild/protobuf (`Message`, `JsonValue`) or its codegenv2 subpath. */
  runtimeType(name: string, from = '@bufbuild/protobuf'): string {
    return this.builder.use(typeSymbol(name, from));
  }

  runtimeValue(name: string, from = '@bufbuild/protobuf/codegenv2'): string {
    return this.builder.use(symbol(name, from));
  }
}

const MAP_NUMBER_KEYS = new Set([ScalarType.INT32, ScalarType.FIXED32, ScalarType.UINT32, ScalarType.SFIXED32, ScalarType.SINT32]);

export function scalarType(scalar: ScalarType, longAsString: boolean): string {
  switch (scalar) {
    case ScalarType.STRING:
      return 'string';
    case ScalarType.BOOL:
      return 'boolean';
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return longAsString ? 'string' : 'bigint';
    case ScalarType.BYTES:
      return 'Uint8Array';
    default:
      return 'number';
  }
}

function scalarJsonType(scalar: ScalarType): string {
  switch (scalar) {
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return 'number | "NaN" | "Infinity" | "-Infinity"';
    case ScalarType.BOOL:
      return 'boolean';
    case ScalarType.INT32:
    case ScalarType.UINT32:
    case ScalarType.SINT32:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return 'number';
    default:
      return 'string';
  }
}

/**
 * The runtime keeps `google.protobuf.Struct` as a plain `JsonObject` in every field except those
 * of `google.protobuf.Value` (which is how a Struct nests in JSON values).
 */
function isJsonObjectField(field: DescField | DescExtension): boolean {
  return field.message?.typeName === 'google.protobuf.Struct' && field.parent?.typeName !== 'google.protobuf.Value';
}

/** The shape type of a message-typed field, list item or map value. */
function messageShape(field: DescField | DescExtension, message: DescMessage, refs: References): string {
  return isJsonObjectField(field) ? refs.runtimeType('JsonObject') : refs.shape(message);
}

/** The member type of a field in the message shape, and whether the member is optional (`?:`). */
export function fieldType(field: DescField | DescExtension, refs: References): { type: string; optional: boolean } {
  switch (field.fieldKind) {
    case 'scalar':
      return { type: scalarType(field.scalar, field.longAsString), optional: field.proto.proto3Optional };
    case 'enum':
      return { type: refs.shape(field.enum), optional: field.proto.proto3Optional };
    case 'message':
      if (!field.oneof && isWrapperDesc(field.message)) return { type: scalarType(field.message.fields[0].scalar!, false), optional: true };
      return { type: messageShape(field, field.message, refs), optional: true };
    case 'list': {
      const item =
        field.listKind === 'scalar'
          ? scalarType(field.scalar, field.longAsString)
          : field.listKind === 'enum'
            ? refs.shape(field.enum)
            : messageShape(field, field.message, refs);
      return { type: `${item}[]`, optional: false };
    }
    case 'map': {
      const value =
        field.mapKind === 'scalar'
          ? scalarType(field.scalar, false)
          : field.mapKind === 'enum'
            ? refs.shape(field.enum)
            : messageShape(field, field.message, refs);
      return { type: `{ [key: ${MAP_NUMBER_KEYS.has(field.mapKey) ? 'number' : 'string'}]: ${value} }`, optional: false };
    }
  }
}

/** The type of a field in the proto3 JSON form of its message (always optional there). */
export function fieldJsonType(field: DescField | DescExtension, refs: References): string {
  switch (field.fieldKind) {
    case 'scalar':
      return scalarJsonType(field.scalar);
    case 'enum':
      return refs.json(field.enum);
    case 'message':
      return refs.json(field.message);
    case 'list': {
      if (field.listKind !== 'scalar') return `${refs.json(field.listKind === 'enum' ? field.enum : field.message)}[]`;
      const item = scalarJsonType(field.scalar);
      return item.includes('|') ? `(${item})[]` : `${item}[]`;
    }
    case 'map': {
      const value =
        field.mapKind === 'scalar' ? scalarJsonType(field.scalar) : refs.json(field.mapKind === 'enum' ? field.enum : field.message);
      return `{ [key: ${MAP_NUMBER_KEYS.has(field.mapKey) ? 'number' : 'string'}]: ${value} }`;
    }
  }
}
