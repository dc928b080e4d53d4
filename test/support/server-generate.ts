/**
 * Generates what a user gets for an OpenAPI file with the server enabled: `types.ts`,
 * `validators.ts`, `server.ts`, `server-validators.ts` and every runtime file they import (the
 * core and the convention stages), the way `generators/openapi/index.ts` wires them.
 */
import { isAbsolute, join } from 'node:path';
import { createTypeEmitter } from '../../generators/core/emit-types.js';
import { emitValidators } from '../../generators/core/emit-validators.js';
import { commentText } from '../../generators/core/names.js';
import type { GeneratedFile } from '../../generators/core/output.js';
import { TemplateRenderer } from '../../generators/core/templates.js';
import { loadOpenApi } from '../../generators/openapi/load.js';
import { emitOperationTypes } from '../../generators/openapi/operation-types.js';
import { requestSchemas } from '../../generators/openapi/requests.js';
import { emitServer, STAGE_RUNTIME } from '../../generators/openapi/server.js';
import { ROOT } from './cli.js';

export async function generateServerFiles(input: string): Promise<GeneratedFile[]> {
  const model = await loadOpenApi(isAbsolute(input) ? input : join(ROOT, input), { displayRoot: ROOT });
  const templates = new TemplateRenderer();
  const types = createTypeEmitter(model.schemas, { requestSchemas: requestSchemas(model) });
  const source = model.source;
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
  const validators = model.schemas.length > 0;
  if (validators) {
    files.push(
      { path: 'validators.ts', content: templates.render('openapi/validators.ts.hbs', { source, ...emitValidators(model.schemas, { typeName: types.typeName }) }) },
      { path: 'runtime/validation.ts', content: templates.render('runtime/validation.ts.hbs', { source }) },
    );
  }
  files.push(...emitServer(model, types, templates, { source, validators }));
  for (const [path, template] of Object.entries(STAGE_RUNTIME)) files.push({ path, content: templates.render(template, { source }) });
  return files;
}
