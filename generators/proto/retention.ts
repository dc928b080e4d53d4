/**
 * protoc's StripSourceRetentionOptions (compiler/retention.cc): options declared with
 * `retention = RETENTION_SOURCE` (extension declarations, `verification`, some features, custom
 * options marked so) are dropped from the descriptors protoc writes, an options message left
 * empty by that is dropped too, and so are the source locations under every removed path.
 */
import { toBinary } from '@bufbuild/protobuf';
import { reflect } from '@bufbuild/protobuf/reflect';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { FieldDescriptorProto_Type, FieldOptions_OptionRetention, FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { DescriptorProto, FieldDescriptorProto, FileDescriptorProto, SourceCodeInfo_Location } from '@bufbuild/protobuf/wkt';

/** The linked types custom option values are read with. */
export interface RetentionTypes {
  /** The extension `number` of the message `extendee` (full name without the leading dot). */
  extension(extendee: string, number: number): FieldDescriptorProto | undefined;
  /** A message by type name as fields write it (`.pkg.Msg`). */
  message(typeName: string): DescriptorProto | undefined;
}

const isSource = (field: FieldDescriptorProto) => field.options?.retention === FieldOptions_OptionRetention.RETENTION_SOURCE;

/** Strips `file` in place and returns its locations without those of the stripped options. */
export function stripSourceRetention(
  file: FileDescriptorProto,
  locations: SourceCodeInfo_Location[],
  types: RetentionTypes,
): SourceCodeInfo_Location[] {
  const stripped: number[][] = [];
  stripMessage(reflect(FileDescriptorProtoSchema, file), [], stripped, types);
  if (stripped.length === 0) return locations;
  const removed = new Set(stripped.map((path) => path.join(',')));
  return locations.filter((loc) => !loc.path.some((_, i) => removed.has(loc.path.slice(0, i + 1).join(','))));
}

const isOptionsMessage = (m: ReflectMessage) => m.desc.typeName.startsWith('google.protobuf.') && m.desc.typeName.endsWith('Options');
const isEmpty = (m: ReflectMessage) => toBinary(m.desc, m.message).length === 0;

function stripMessage(m: ReflectMessage, path: number[], stripped: number[][], types: RetentionTypes): void {
  for (const field of m.fields) {
    if (!m.isSet(field)) continue;
    path.push(field.number);
    if (field.proto.options?.retention === FieldOptions_OptionRetention.RETENTION_SOURCE) {
      m.clear(field);
      stripped.push([...path]);
    } else if (field.fieldKind === 'message') {
      const child = m.get(field);
      const wasNonEmptyOptions = isOptionsMessage(child) && !isEmpty(child);
      stripMessage(child, path, stripped, types);
      if (wasNonEmptyOptions && isEmpty(child)) {
        m.clear(field);
        stripped.push([...path]);
      }
    } else if (field.fieldKind === 'list' && field.listKind === 'message') {
      let index = 0;
      for (const item of m.get(field)) {
        path.push(index++);
        stripMessage(item as ReflectMessage, path, stripped, types);
        path.pop();
      }
    }
    path.pop();
  }
  // Custom options are extensions, kept as unknown fields of the options message; protoc strips
  // inside message-typed ones too.
  const unknown = m.message.$unknown;
  if (isOptionsMessage(m) && unknown && unknown.length > 0) {
    const kept: typeof unknown = [];
    for (const u of unknown) {
      const ext = types.extension(m.desc.typeName, u.no);
      if (ext && isSource(ext)) {
        stripped.push([...path, u.no]);
        continue;
      }
      if (ext && ext.type === FieldDescriptorProto_Type.MESSAGE && u.wireType === WireType.LengthDelimited) {
        const inner = new BinaryReader(u.data).bytes();
        const kept2 = stripBytes(inner, ext.typeName, types, [...path, u.no], stripped);
        if (kept2 !== inner) {
          kept.push({ ...u, data: new BinaryWriter().bytes(kept2).finish() });
          continue;
        }
      }
      kept.push(u);
    }
    m.message.$unknown = kept;
  }
}

/**
 * A message's wire bytes without its source-retention fields, nested messages included. Other
 * fields keep their bytes and order (protoc's option encoding is already canonical).
 */
function stripBytes(bytes: Uint8Array, typeName: string, types: RetentionTypes, path: number[], stripped: number[][]): Uint8Array {
  const message = types.message(typeName);
  if (!message) return bytes;
  const reader = new BinaryReader(bytes);
  const writer = new BinaryWriter();
  let changed = false;
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const [no, wireType] = reader.tag();
    const valueStart = reader.pos;
    reader.skip(wireType, no);
    const field = message.field.find((f) => f.number === no) ?? types.extension(typeName.slice(1), no);
    if (field && isSource(field)) {
      changed = true;
      stripped.push([...path, no]);
      continue;
    }
    if (field && field.type === FieldDescriptorProto_Type.MESSAGE && wireType === WireType.LengthDelimited) {
      const inner = new BinaryReader(bytes.subarray(valueStart, reader.pos)).bytes();
      const kept = stripBytes(inner, field.typeName, types, [...path, no], stripped);
      if (kept !== inner) {
        changed = true;
        writer.tag(no, WireType.LengthDelimited).bytes(kept);
        continue;
      }
    }
    writer.raw(bytes.subarray(start, reader.pos));
  }
  return changed ? writer.finish() : bytes;
}
