/**
 * OpenAPI 3.0/3.1 → `types.ts`, `validators.ts`, `client.ts` and the runtime files they import.
 * Validators and the client are typed by `types.ts`, so asking for either also writes the types.
 */
import { createTypeEmitter } from '../core/emit-types.js';
import { emitValidators } from '../core/emit-validators.js';
import type { Generated, GeneratorContext } from '../core/generate.js';
import { commentText } from '../core/names.js';
import type { GeneratedFile } from '../core/output.js';
import { emitClient } from './client.js';
import { loadOpenApi } from './load.js';
import { emitOperationTypes } from './operation-types.js';
import { requestSchemas } from './requests.js';

export async function generateOpenApi({ api, templates }: GeneratorContext): Promise<Generated> {
  const model = await loadOpenApi(api.inputs[0], { displayRoot: api.root });
  const source = model.source;
  const types = createTypeEmitter(model.schemas, { requestSchemas: requestSchemas(model) });
  // No schemas, nothing to validate: skip the file rather than write an empty module.
  const withValidators = api.emit.includes('validators') && model.schemas.length > 0;

  const files: GeneratedFile[] = [
    {
      path: 'types.ts',
      content: templates.render('openapi/types.ts.hbs', {
        source,
        title: commentText(model.title),
        version: commentText(model.version),
        schemas: types.declarations(),
        operations: emitOperationTypes(model, types),
      }),
    },
  ];
  if (withValidators) {
    const validators = emitValidators(model.schemas, { typeName: types.typeName });
    files.push(
      { path: 'validators.ts', content: templates.render('openapi/validators.ts.hbs', { source, ...validators }) },
      { path: 'runtime/validation.ts', content: templates.render('runtime/validation.ts.hbs', { source }) },
    );
  }
  // A document with no operations (webhooks only) has nothing for a client to call.
  if (api.emit.includes('client') && model.operations.length > 0) {
    files.push(...emitClient(model, types, templates, { source, validators: withValidators }));
  }
  return { files };
}
