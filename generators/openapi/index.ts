/**
 * OpenAPI 3.0/3.1 → `types.ts`, `validators.ts`, `client.ts`, `query.ts`, `server.ts` (and, with
 * `openapiTypescript`, `paths.ts`) and the runtime files they import. Everything is typed by
 * `types.ts`, so it is always written; a server validates its input, so asking for one also
 * writes the validators.
 */
import { createTypeEmitter } from '../core/emit/types/emit.js';
import { emitValidators } from '../core/emit/validators/emit.js';
import { jsModuleFiles, type ModuleText } from '../core/emit/module-files.js';
import type { Generated, GeneratorContext } from '../core/pipeline/generator.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { FileBuilder } from '../core/builder/file.js';
import { commentText } from '../core/builder/names.js';
import type { GeneratedFile } from '../core/pipeline/output.js';
import { memoized } from '../core/pipeline/run-memo.js';
import { JsonReparse } from '../core/schema/json-reparse.js';
import { KeptLowerings } from '../core/schema/registry.js';
import { validatorsKey } from '../core/emit/validators/key.js';
import { clientKey, emitClient } from './client.js';
import { emitQuery } from './query.js';
import { loadOpenApi } from './load.js';
import { describeOperations, emitOperationTypes } from './operation-types.js';
import { handlerScaffold } from './handlers.js';
import { emitPaths } from './paths.js';
import { requestSchemas } from './requests.js';
import { emitServer } from './server.js';
import { emitMock } from './mock.js';
import { emitMsw, MSW_SEED } from './msw.js';
import { operationSamples } from './samples.js';
import type { TypesContext, ModuleContext } from './template-context.js';

export async function generateOpenApi({ api, templates, memo }: GeneratorContext<'openapi'>): Promise<Generated> {
  let warnings: Diagnostic[] = [];
  const model = await loadOpenApi(api.inputs[0], {
    displayRoot: api.root,
    readRoots: api.readRoots ?? [api.root],
    maxInputBytes: api.maxInputBytes,
    strict: api.strict === true,
    onWarnings: (forgiven) => (warnings = forgiven),
    ...(memo && { kept: memo.state('parses and lowerings', () => ({ parses: new JsonReparse(), lowerings: new KeptLowerings() })) }),
  });
  const source = model.source;
  const types = createTypeEmitter(
    model.schemas,
    memo ? { requestSchemas: requestSchemas(model), memo } : { requestSchemas: requestSchemas(model) },
  );
  // Each operation's names and types, decided once for types.ts, client, server and handlers.
  const described = describeOperations(model, types);
  const withServer = api.emit.includes('server') && model.operations.length > 0;
  // No schemas, nothing to validate: skip the file rather than write an empty module.
  const withValidators = (api.emit.includes('validators') || withServer) && model.schemas.length > 0;

  const typesContext: TypesContext = {
    source,
    title: commentText(model.title),
    version: commentText(model.version),
    schemas: types.declarations(),
    ...emitOperationTypes(described),
  };
  const files: GeneratedFile[] = [{ path: 'types.ts', content: templates.render('openapi/types.ts.hbs', typesContext) }];
  // On request only: every file of the output is type-checked in a user's project, used or not.
  if (api.options.openapiTypescript === true) files.push(emitPaths(model, types, templates, source));
  // `validators: js` (the default): validators.js + validators.d.ts, which a project's tsc only reads.
  const language = api.options.validators ?? 'js';
  // What the validators and the client read of the schemas: their names, type names and shapes.
  let schemasKey: string | undefined;
  const shapes = () => (schemasKey ??= validatorsKey(source, model.schemas, types.typeName));
  if (withValidators) {
    // The validators are a function of what the schemas accept, the type names and the language:
    // a save that changes only descriptions or examples reuses them under --watch.
    const emit = () => {
      const file = new FileBuilder('validators.ts');
      const result = emitValidators(model.schemas, { typeName: types.typeName, file, language });
      const render = (text: ModuleText) => templates.render('openapi/module.ts.hbs', { source, ...text } satisfies ModuleContext);
      return jsModuleFiles('validators', file, result, render);
    };
    files.push(...memoized(memo, 'validators', () => `${language}\n${shapes()}`, emit));
  }
  // The query options call the client: asking for them also writes it.
  const withQuery = api.emit.includes('query') && model.operations.length > 0;
  // A document with no operations (webhooks only) has nothing for a client to call.
  if ((api.emit.includes('client') || withQuery) && model.operations.length > 0) {
    // The language is part of the key: it decides client-operations' files.
    const options = { source, validators: withValidators, language };
    const client = () => emitClient(model, types, described, templates, options);
    files.push(...memoized(memo, 'client', () => clientKey(model, described, options, shapes()), client));
  }
  if (withQuery) {
    const query = emitQuery(model, types, described, templates, { source, apiName: api.name });
    files.push(query.file);
    warnings = [...warnings, ...query.warnings];
  }
  if (api.emit.includes('msw') && model.operations.length > 0) {
    const { samples, warnings: unsampled } = operationSamples(model, described, MSW_SEED);
    files.push(emitMsw(model, types, described, samples, templates, source));
    warnings = [...warnings, ...unsampled];
  }
  if (!withServer) return { files, warnings };

  files.push(
    ...emitServer(model, types, described, templates, { source, validators: withValidators, language, redis: api.options.redis === true }),
  );
  if (api.mock) {
    const { samples, warnings: unsampled } = operationSamples(model, described, api.mock.seed);
    files.push(emitMock(model, samples, api.mock.seed, templates, source));
    return { files, warnings: [...warnings, ...unsampled] };
  }
  const userFiles = api.handlers ? [await handlerScaffold(model, described, templates, api.handlers, api.output)] : [];
  return { files, userFiles, warnings };
}
