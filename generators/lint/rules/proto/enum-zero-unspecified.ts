import type { DescriptorProto, EnumDescriptorProto, FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { defineRule } from '../../rule.js';
import { PROTO_PATH } from '../../proto-context.js';
import type { ProtoContext } from '../../proto-context.js';

/**
 * proto3 reads a missing enum as 0: the zero value must mean "not set" (`TASK_STATUS_UNSPECIFIED`).
 * Any name ending in `_UNSPECIFIED` says so (buf's ENUM_ZERO_VALUE_SUFFIX): a nested enum's
 * `STRATEGY_UNSPECIFIED` passes.
 */
export const enumZeroUnspecified = defineRule({
  id: 'grpc/enum-zero-unspecified',
  style: 'proto',
  severity: 'warning',
  section: '§9',
  docs: "Every enum's zero value ends in _UNSPECIFIED (<ENUM_NAME>_UNSPECIFIED by convention).",
  check(context) {
    for (const file of context.files) {
      file.enumType.forEach((en, i) => checkEnum(context, file, en, [PROTO_PATH.enumType, i]));
      const walk = (message: DescriptorProto, path: number[]) => {
        message.enumType.forEach((en, i) => checkEnum(context, file, en, [...path, PROTO_PATH.messageEnum, i]));
        message.nestedType.forEach((nested, i) => walk(nested, [...path, PROTO_PATH.nestedType, i]));
      };
      file.messageType.forEach((message, i) => walk(message, [PROTO_PATH.messageType, i]));
    }
  },
});

function checkEnum(context: ProtoContext, file: FileDescriptorProto, en: EnumDescriptorProto, path: number[]): void {
  const expected = `${en.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}_UNSPECIFIED`;
  const zero = en.value.findIndex((value) => value.number === 0);
  const value = en.value[zero];
  if (value?.name.endsWith('_UNSPECIFIED')) return;
  if (value)
    context.report(
      file,
      [...path, PROTO_PATH.enumValue, zero, PROTO_PATH.name],
      `enum ${en.name}'s zero value is ${value.name}, not ${expected}; proto3 reads a missing value as 0, so 0 must mean "unspecified": rename it to ${expected} (and give the real values other numbers), so values can be added as the schema evolves (§9)`,
    );
  else
    context.report(
      file,
      path,
      `enum ${en.name} has no zero value; add ${expected} = 0 as its first value (proto3 reads a missing value as 0; §9)`,
    );
}
