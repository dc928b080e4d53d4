/**
 * Runs generation for a list of APIs: each input style's generator turns its input into files,
 * in memory. Nothing is written here; the writer does that once everything succeeded.
 */
import type { ApiConfig } from '../config/config.js';
import { error } from '../diagnostics.js';
import { GENERATORS } from '../../styles.js';
import type { StyleGenerator } from './generator.js';
import type { RunMemo } from './run-memo.js';
import { withRuntimeFiles } from './runtime-files.js';
import { shareRuntime } from './shared-runtime.js';
import { TemplateRenderer } from './templates.js';
import type { OutputSet } from './writer.js';

/** `memo`: what the previous run computed (`codegen --watch`); the output is the same with or without it. */
export async function generate(apis: ApiConfig[], memo?: RunMemo): Promise<OutputSet[]> {
  // APIs are independent: generate them concurrently, keep the config's order in the result.
  const sets = await Promise.all(
    apis.map(async (api) => {
      const load = GENERATORS[api.style];
      if (!load)
        throw error(
          `${api.name}: ${api.style} input is not supported yet`,
          undefined,
          'supported today: openapi, graphql, proto, asyncapi',
        );
      // The generator is the one of `api.style`, so it gets that style's options.
      const generator = (await load()) as StyleGenerator;
      const templates = new TemplateRenderer(api.templates);
      // Slots are per API and per set of template overrides: editing an override invalidates them all.
      const scoped = memo?.scope(`${api.name}\u0000${api.output}\u0000${templates.overridesKey()}`);
      const { files, userFiles, warnings } = await generator(scoped ? { api, templates, memo: scoped } : { api, templates });
      // The runtime modules the generated files import, and theirs, are written here, not by styles.
      const output = withRuntimeFiles(files, templates, scoped);
      return { folder: api.output, files: [...output].sort((a, b) => (a.path < b.path ? -1 : 1)), userFiles, warnings, root: api.root };
    }),
  );
  // `runtime: shared` APIs: one copy of the runtime files, as an output set of its own at the end.
  return shareRuntime(apis, sets);
}
