/**
 * The types option values are checked and encoded against: message and enum descriptors found in
 * the loaded files (the linker's symbols) or, for `google.protobuf.*Options` and `FeatureSet` when
 * no loaded file declares them, in the `descriptor.proto` embedded in @bufbuild/protobuf. Each field
 * comes with what its encoding depends on — presence, packing, delimited (group) encoding — decided
 * by its file's syntax and, under editions, by the features it inherits, as protoc decides them.
 */
import { isFieldSet, ScalarType } from '@bufbuild/protobuf';
import {
  FeatureSet_EnumType,
  FeatureSet_FieldPresence,
  FeatureSet_MessageEncoding,
  FeatureSet_RepeatedFieldEncoding,
  FeatureSet_Utf8Validation,
  FieldDescriptorProtoSchema,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  file_google_protobuf_descriptor,
} from '@bufbuild/protobuf/wkt';
import type { DescriptorProto, EnumDescriptorProto, FeatureSet, FieldDescriptorProto, FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { parentScope } from './parse.js';
import type { Linker, LinkFile } from './resolve.js';

/** A descriptor whose options may carry editions features. */
interface HasFeatures {
  options?: { features?: FeatureSet } | undefined;
}

export interface OptionMessageType {
  fullName: string;
  proto: DescriptorProto;
  file: FileDescriptorProto;
  /** The enclosing messages, innermost first, then the file: where features are inherited from. */
  parents: HasFeatures[];
}

export interface OptionEnumType {
  fullName: string;
  proto: EnumDescriptorProto;
  /** proto2 and `enum_type = CLOSED` enums accept only declared numbers. */
  closed: boolean;
}

export interface OptionField {
  proto: FieldDescriptorProto;
  /** How messages name it: `name` for a field, `pkg.ext` for an extension. */
  name: string;
  number: number;
  isExtension: boolean;
  repeated: boolean;
  /** Repeated scalars written as one length-delimited record. */
  packed: boolean;
  /** proto3 and `field_presence = IMPLICIT`: a singular zero value is not written. */
  implicit: boolean;
  /** Written as a group (proto2 `group`, editions `message_encoding = DELIMITED`). */
  delimited: boolean;
  /** proto2 `required` or editions `field_presence = LEGACY_REQUIRED`: an aggregate must set it. */
  required: boolean;
  /** A string field whose value must be valid UTF-8 (proto3, editions unless `utf8_validation = NONE`). */
  utf8: boolean;
  kind: 'scalar' | 'enum' | 'message';
  /** For scalars, the scalar type; enums are INT32 on the wire. */
  scalar: ScalarType;
  /** Resolved on demand: option messages may be recursive. */
  message(): OptionMessageType;
  enumType(): OptionEnumType;
}

const SCALAR_OF_TYPE: Partial<Record<FieldDescriptorProto_Type, ScalarType>> = {
  [FieldDescriptorProto_Type.DOUBLE]: ScalarType.DOUBLE,
  [FieldDescriptorProto_Type.FLOAT]: ScalarType.FLOAT,
  [FieldDescriptorProto_Type.INT64]: ScalarType.INT64,
  [FieldDescriptorProto_Type.UINT64]: ScalarType.UINT64,
  [FieldDescriptorProto_Type.INT32]: ScalarType.INT32,
  [FieldDescriptorProto_Type.FIXED64]: ScalarType.FIXED64,
  [FieldDescriptorProto_Type.FIXED32]: ScalarType.FIXED32,
  [FieldDescriptorProto_Type.BOOL]: ScalarType.BOOL,
  [FieldDescriptorProto_Type.STRING]: ScalarType.STRING,
  [FieldDescriptorProto_Type.BYTES]: ScalarType.BYTES,
  [FieldDescriptorProto_Type.UINT32]: ScalarType.UINT32,
  [FieldDescriptorProto_Type.SFIXED32]: ScalarType.SFIXED32,
  [FieldDescriptorProto_Type.SFIXED64]: ScalarType.SFIXED64,
  [FieldDescriptorProto_Type.SINT32]: ScalarType.SINT32,
  [FieldDescriptorProto_Type.SINT64]: ScalarType.SINT64,
};

type Syntax = 'proto2' | 'proto3' | 'editions';

function syntaxOf(file: FileDescriptorProto): Syntax {
  if (file.syntax === 'proto3') return 'proto3';
  return file.syntax === 'editions' ? 'editions' : 'proto2';
}

/** The first feature value set on the element or an ancestor (0 = unset); editions 2023+ defaults otherwise. */
function feature(chain: HasFeatures[], pick: (features: FeatureSet) => number): number {
  for (const element of chain) {
    const value = element.options?.features ? pick(element.options.features) : 0;
    if (value !== 0) return value;
  }
  return 0;
}

/**
 * Thrown when an option needs a type the linker could not resolve: that error is already reported,
 * so the option is skipped without a second one.
 */
export class UnresolvedOptionType extends Error {}

/** Whether a field belongs to a oneof (`oneof_index` 0 is a real index, so presence decides). */
export function inOneof(proto: FieldDescriptorProto): boolean {
  return isFieldSet(proto, FieldDescriptorProtoSchema.field.oneofIndex);
}

/** Types by full name, from the loaded files first and the embedded descriptor.proto after. */
export class OptionTypes {
  private readonly embedded = new Map<
    string,
    { kind: 'message' | 'enum'; desc: DescriptorProto | EnumDescriptorProto; parents: HasFeatures[] }
  >();

  constructor(private readonly linker: Linker) {
    const file = file_google_protobuf_descriptor.proto;
    const addEnum = (e: EnumDescriptorProto, scope: string, parents: HasFeatures[]) =>
      this.embedded.set(`${scope}.${e.name}`, { kind: 'enum', desc: e, parents });
    const addMessage = (m: DescriptorProto, scope: string, parents: HasFeatures[]) => {
      const full = `${scope}.${m.name}`;
      this.embedded.set(full, { kind: 'message', desc: m, parents });
      for (const nested of m.nestedType) addMessage(nested, full, [m, ...parents]);
      for (const e of m.enumType) addEnum(e, full, [m, ...parents]);
    };
    for (const m of file.messageType) addMessage(m, file.package, [file]);
    for (const e of file.enumType) addEnum(e, file.package, [file]);
  }

  /** A message type by full name (no leading dot), or undefined. */
  message(fullName: string): OptionMessageType | undefined {
    const sym = this.linker.symbols.get(fullName);
    if (sym?.kind === 'message')
      return { fullName, proto: sym.desc as DescriptorProto, file: sym.file.proto, parents: this.parentsOf(fullName, sym.file) };
    const embedded = this.embedded.get(fullName);
    if (embedded?.kind === 'message')
      return { fullName, proto: embedded.desc as DescriptorProto, file: file_google_protobuf_descriptor.proto, parents: embedded.parents };
    return undefined;
  }

  private enumType(fullName: string): OptionEnumType {
    const sym = this.linker.symbols.get(fullName);
    let proto: EnumDescriptorProto;
    let file: FileDescriptorProto;
    let parents: HasFeatures[];
    if (sym?.kind === 'enum') {
      proto = sym.desc as EnumDescriptorProto;
      file = sym.file.proto;
      parents = this.parentsOf(fullName, sym.file);
    } else {
      const embedded = this.embedded.get(fullName);
      if (embedded?.kind !== 'enum') throw new UnresolvedOptionType(fullName);
      proto = embedded.desc as EnumDescriptorProto;
      file = file_google_protobuf_descriptor.proto;
      parents = embedded.parents;
    }
    const syntax = syntaxOf(file);
    const closed =
      syntax === 'proto2' || (syntax === 'editions' && feature([proto, ...parents], (f) => f.enumType) === FeatureSet_EnumType.CLOSED);
    return { fullName, proto, closed };
  }

  /** The messages enclosing a type declared in `file`, innermost first, then the file. */
  private parentsOf(fullName: string, file: LinkFile): HasFeatures[] {
    const parents: HasFeatures[] = [];
    for (let scope = parentScope(fullName); scope !== '' && scope !== file.proto.package; scope = parentScope(scope)) {
      const sym = this.linker.symbols.get(scope);
      if (sym?.kind === 'message') parents.push(sym.desc as DescriptorProto);
    }
    parents.push(file.proto);
    return parents;
  }

  /** A field of `owner`. */
  field(owner: OptionMessageType, proto: FieldDescriptorProto): OptionField {
    const oneof = inOneof(proto) ? owner.proto.oneofDecl[proto.oneofIndex] : undefined;
    const chain: HasFeatures[] = [proto, ...(oneof ? [oneof] : []), owner.proto, ...owner.parents];
    return this.describe(proto, proto.name, false, owner.file, chain);
  }

  /** An extension, declared in `file` inside `scope` (a message's full name or the package). */
  extension(proto: FieldDescriptorProto, fullName: string, file: LinkFile): OptionField {
    const chain: HasFeatures[] = [proto];
    const scope = parentScope(fullName);
    const sym = scope === '' ? undefined : this.linker.symbols.get(scope);
    if (sym?.kind === 'message') chain.push(sym.desc as DescriptorProto, ...this.parentsOf(scope, file));
    else chain.push(file.proto);
    return this.describe(proto, fullName, true, file.proto, chain);
  }

  private describe(
    proto: FieldDescriptorProto,
    name: string,
    isExtension: boolean,
    file: FileDescriptorProto,
    chain: HasFeatures[],
  ): OptionField {
    if (proto.typeName !== '' && !proto.typeName.startsWith('.')) throw new UnresolvedOptionType(proto.typeName);
    const syntax = syntaxOf(file);
    const repeated = proto.label === FieldDescriptorProto_Label.REPEATED;
    const isMessage = proto.type === FieldDescriptorProto_Type.MESSAGE || proto.type === FieldDescriptorProto_Type.GROUP;
    const isEnum = proto.type === FieldDescriptorProto_Type.ENUM;
    const scalar = isEnum ? ScalarType.INT32 : (SCALAR_OF_TYPE[proto.type] ?? ScalarType.INT32);
    const packable = repeated && !isMessage && scalar !== ScalarType.STRING && scalar !== ScalarType.BYTES;
    let packed = false;
    if (packable) {
      if (proto.options?.packed !== undefined && syntax !== 'editions') packed = proto.options.packed;
      else if (syntax === 'proto3') packed = true;
      else if (syntax === 'editions') packed = feature(chain, (f) => f.repeatedFieldEncoding) !== FeatureSet_RepeatedFieldEncoding.EXPANDED;
    }
    let implicit = false;
    if (!repeated && !isMessage && !isExtension && !inOneof(proto)) {
      if (syntax === 'proto3') implicit = !proto.proto3Optional;
      else if (syntax === 'editions') implicit = feature(chain, (f) => f.fieldPresence) === FeatureSet_FieldPresence.IMPLICIT;
    }
    const delimited =
      proto.type === FieldDescriptorProto_Type.GROUP ||
      (isMessage && syntax === 'editions' && feature(chain, (f) => f.messageEncoding) === FeatureSet_MessageEncoding.DELIMITED);
    const required =
      proto.label === FieldDescriptorProto_Label.REQUIRED ||
      (syntax === 'editions' &&
        !repeated &&
        !isExtension &&
        feature(chain, (f) => f.fieldPresence) === FeatureSet_FieldPresence.LEGACY_REQUIRED);
    const utf8 =
      syntax === 'proto3' || (syntax === 'editions' && feature(chain, (f) => f.utf8Validation) !== FeatureSet_Utf8Validation.NONE);
    const typeName = proto.typeName.replace(/^\./, '');
    return {
      proto,
      name,
      number: proto.number,
      isExtension,
      repeated,
      packed,
      implicit,
      delimited,
      required,
      utf8,
      kind: isMessage ? 'message' : isEnum ? 'enum' : 'scalar',
      scalar,
      message: () => {
        const type = this.message(typeName);
        if (!type) throw new UnresolvedOptionType(typeName);
        return type;
      },
      enumType: () => this.enumType(typeName),
    };
  }
}
