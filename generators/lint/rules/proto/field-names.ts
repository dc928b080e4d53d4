import type { DescriptorProto } from '@bufbuild/protobuf/wkt';
import { defineRule } from '../../rule.js';
import { PROTO_PATH } from '../../proto-context.js';

/** lower_snake_case field names give the JSON names (lowerCamelCase) every gRPC/JSON mapping expects. */
export const fieldNames = defineRule({
  id: 'grpc/field-names',
  style: 'proto',
  severity: 'warning',
  section: '§4.6',
  docs: 'Field names are lower_snake_case.',
  check(context) {
    for (const file of context.files) {
      const walk = (message: DescriptorProto, path: number[]) => {
        if (message.options?.mapEntry) return;
        message.field.forEach((field, i) => {
          if (/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(field.name)) return;
          const snake = field.name
            .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
            .replace(/__+/g, '_')
            .toLowerCase();
          context.report(
            file,
            [...path, PROTO_PATH.messageField, i, PROTO_PATH.name],
            `field ${message.name}.${field.name} is not lower_snake_case; rename it ${snake}: one .proto serves gRPC and JSON (§4.6), and JSON names are derived from snake_case ones (its JSON name stays lowerCamelCase, and generated code reads it as ${snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())})`,
          );
        });
        message.nestedType.forEach((nested, i) => walk(nested, [...path, PROTO_PATH.nestedType, i]));
      };
      file.messageType.forEach((message, i) => walk(message, [PROTO_PATH.messageType, i]));
    }
  },
});
