/**
 * The input styles codegen generates from, each loaded lazily so a run pays only for the styles it
 * uses. The pipeline (core/pipeline/generate.ts) looks a style up here; the styles know nothing of it.
 */
import type { InputStyle } from './core/config/input-style.js';
import type { StyleGenerator } from './core/pipeline/generator.js';

/** Generators by input style; each loads lazily so a run pays only for the styles it uses. */
export const GENERATORS: { [S in InputStyle]: (() => Promise<StyleGenerator<S>>) | undefined } = {
  openapi: async () => (await import('./openapi/index.js')).generateOpenApi,
  graphql: async () => (await import('./graphql/index.js')).generateGraphQL,
  proto: async () => (await import('./proto/index.js')).generateProto,
  asyncapi: async () => (await import('./asyncapi/index.js')).generateAsyncApi,
};

/**
 * Whether a style serves `codegen mock` (bin/mock.ts). REST and AsyncAPI: the style's generator,
 * given `api.mock` (a seed), also writes `mock.ts`, whose `serveMock(options?: MockOptions):
 * Promise<MockServer>` (runtime/mock.ts) serves the generated server with handlers answering from
 * the schema. GraphQL and proto: bin/mock-graphql-grpc.ts serves the generated server with the
 * handlers of codegen-ts/mock, built in the CLI's process from the schema.
 */
export const MOCKS: { [S in InputStyle]: boolean } = {
  openapi: true,
  graphql: true,
  proto: true,
  asyncapi: true,
};
