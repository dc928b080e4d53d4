/**
 * protoc's StripSourceRetentionOptions (compiler/retention.cc): options declared with
 * `retention = RETENTION_SOURCE` (extension declarations, `verification`, some features, custom
 * options marked so) are dropped from the descriptors protoc writes, an options message left
 * empty by that is dropped too, and so are the source locations under every removed path.
 */
import { toBinary } from '@bufbuild/protobuf';
import { reflect } from '@bufbuild/protobuf/reflect';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { FieldOptions_OptionRetention, FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { FileDescriptorProto, SourceCodeInfo_Location } from '@bufbuild/protobuf/wkt';

/** Whether the custom option `number` of the options message `optionsType` has source retention. */
export type SourceRetentionExtension = (optionsType: string, number: number) => boolean;

/** Strips `file` in place and returns its locations without those of the stripped options. */
export function stripSourceRetention(file: FileDescriptorProto, locations: SourceCodeInfo_Location[], isSourceExtension: SourceRetentionExtension): SourceCodeInfo_Location[] {
  const stripped: number[][] = [];
  stripMessage(reflect(FileDescriptorProtoSchema, file), [], stripped, isSourceExtension);
  if (stripped.length === 0) return locations;
  const removed = new Set(stripped.map((path) => path.join(',')));
  return locations.filter((loc) => !loc.path.some((_, i) => removed.has(loc.path.slice(0, i + 1).join(','))));
}

const isOptionsMessage = (m: ReflectMessage) => m.desc.typeName.startsWith('google.protobuf.') && m.desc.typeName.endsWith('Options');
const isEmpty = (m: ReflectMessage) => toBinary(m.desc, m.message).length === 0;

function stripMessage(m: ReflectMessage, path: number[], stripped: number[][], isSourceExtension: SourceRetentionExtension): void {
  for (const field of m.fields) {
    if (!m.isSet(field)) continue;
    path.push(field.number);
    if (field.proto.options?.retention === FieldOptions_OptionRetention.RETENTION_SOURCE) {
      m.clear(field);
      stripped.push([...path]);
    } else if (field.fieldKind === 'message') {
      const child = m.get(field);
      const wasNonEmptyOptions = isOptionsMessage(child) && !isEmpty(child);
      stripMessage(child, path, stripped, isSourceExtension);
      if (wasNonEmptyOptions && isEmpty(child)) {
        m.clear(field);
        stripped.push([...path]);
      }
    } else if (field.fieldKind === 'list' && field.listKind === 'message') {
      let index = 0;
      for (const item of m.get(field)) {
        path.push(index++);
        stripMessage(item as ReflectMessage, path, stripped, isSourceExtension);
        path.pop();
      }
    }
    path.pop();
  }
  // Custom options are extensions, kept as unknown fields of the options message.
  const unknown = m.message.$unknown;
  if (isOptionsMessage(m) && unknown && unknown.length > 0) {
    const kept = unknown.filter((u) => !isSourceExtension(m.desc.typeName, u.no));
    for (const u of unknown) if (!kept.includes(u)) stripped.push([...path, u.no]);
    m.message.$unknown = kept;
  }
}
