/**
 * Runs generation for a list of APIs: each input style's generator turns its input into files,
 * in memory. Nothing is written here; the writer does that once everything succeeded.
 */
import type { ApiConfig, InputStyle } from './config.js';
import { error, type Diagnostic } from './diagnostics.js';
import type { GeneratedFile } from './output.js';
import { shareRuntime } from './shared-runtime.js';
import { TemplateRenderer } from './templates.js';
import type { OutputSet } from './writer.js';

/** What a style's generator gets: its API's config (options typed by style) and the template renderer. */
export interface GeneratorContext<S extends InputStyle = InputStyle> {
  api: ApiConfig<S>;
  templates: TemplateRenderer;
}

/** What a style generator produces: files in the output folder, and user-owned files elsewhere. */
export interface Generated {
  files: GeneratedFile[];
  userFiles?: { file: string; content: string }[];
  /** Problems worth fixing that do not stop generation (schema lint); the CLI prints them. */
  warnings?: Diagnostic[];
}

export type StyleGenerator<S extends InputStyle = InputStyle> = (context: GeneratorContext<S>) => Promise<Generated>;

/** Generators by input style; each loads lazily so a run pays only for the styles it uses. */
const GENERATORS: { [S in InputStyle]: (() => Promise<StyleGenerator<S>>) | undefined } = {
  openapi: async () => (await import('../openapi/index.js')).generateOpenApi,
  graphql: async () => (await import('../graphql/index.js')).generateGraphQL,
  proto: async () => (await import('../proto/index.js')).generateProto,
  asyncapi: async () => (await import('../asyncapi/index.js')).generateAsyncApi,
};

export async function generate(apis: ApiConfig[]): Promise<OutputSet[]> {
  // APIs are independent: generate them concurrently, keep the config's order in the result.
  const sets = await Promise.all(
    apis.map(async (api) => {
      const load = GENERATORS[api.style];
      if (!load) throw error(`${api.name}: ${api.style} input is not supported yet`, undefined, 'supported today: openapi, graphql, proto, asyncapi');
      // The generator is the one of `api.style`, so it gets that style's options.
      const generator = (await load()) as StyleGenerator;
      const { files, userFiles, warnings } = await generator({ api, templates: new TemplateRenderer(api.templates) });
      return { folder: api.output, files: [...files].sort((a, b) => (a.path < b.path ? -1 : 1)), userFiles, warnings, root: api.root };
    }),
  );
  // `runtime: shared` APIs: one copy of the runtime files, as an output set of its own at the end.
  return shareRuntime(apis, sets);
}
