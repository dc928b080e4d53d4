import type { ApiModel } from './model.js';
import { forEachSubschema, refName } from '../core/schema/json-schema.js';

/** Names of the schemas a client sends: those its request bodies and parameters refer to. */
export function requestSchemas(model: ApiModel): Set<string> {
  const names = new Set<string>();
  for (const operation of model.operations) {
    const schemas = [
      ...operation.parameters.map((parameter) => parameter.schema),
      ...(operation.requestBody?.contents ?? []).map((content) => content.schema),
    ];
    for (const schema of schemas) {
      if (schema === undefined) continue;
      forEachSubschema(schema, (node) => {
        const name = typeof node === 'object' && node.$ref ? refName(node.$ref) : undefined;
        if (name) names.add(name);
      });
    }
  }
  return names;
}
