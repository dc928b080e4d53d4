/**
 * `codegen mock` for GraphQL and proto APIs: serves the generated server found in a folder (written
 * and transpiled to JavaScript, as the command does for every style) with the mock handlers of
 * generators/graphql/mock.ts or generators/proto/mock.ts in place of the user's. The handlers run
 * in this process, so the seed never has to be written into generated code.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DescService } from '@bufbuild/protobuf';
import type { GraphQLSchema } from 'graphql';
import { graphqlMockResolvers } from '../generators/graphql/mock.js';
import { grpcMockServices } from '../generators/proto/mock.js';

export interface MockListenSettings {
  /** Same seed, same answers. */
  seed: number;
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface ServedMock {
  /** `http://host:port` (GraphQL answers on its path, `/graphql` by default). */
  url: string;
  close(): Promise<void>;
}

/** What this module uses of a generated GraphQL `server.js`. */
interface GraphQLServerModule {
  createGraphQLServer(
    resolvers: never,
    options: {
      context: () => object;
      authenticate: (request: { headers: Record<string, unknown>; connectionParams?: Record<string, unknown> }) => { role: string } | null;
    },
  ): { listener: never; attach(server: Server): void; close(): Promise<void> };
  createHttpServer(listener: never): Server;
  /** The roles of `@auth`, lowest first; absent when the schema has none. */
  ROLES?: readonly string[];
}

/** What this module uses of a generated proto `server.js`. */
interface GrpcServerModule {
  createGrpcServer(services: never): { listen(port: number, host?: string): Promise<number>; close(): Promise<void> };
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The generated GraphQL server of `folder` answering from `schema`. Any credential signs in with the
 * highest `@auth` role (as Prism accepts any credential); a request without one is anonymous, so
 * guarded fields answer as the real server does.
 */
export async function serveGraphQLMock(folder: string, schema: GraphQLSchema, settings: MockListenSettings): Promise<ServedMock> {
  const module = (await import(pathToFileURL(join(folder, 'server.js')).href)) as GraphQLServerModule;
  const role = module.ROLES?.at(-1) ?? 'ADMIN';
  const graphql = module.createGraphQLServer(graphqlMockResolvers(schema, { seed: settings.seed }) as never, {
    context: () => ({}),
    authenticate: (request) => (request.headers.authorization || request.connectionParams?.authorization ? { role } : null),
  });
  const server = module.createHttpServer(graphql.listener);
  graphql.attach(server);
  const host = settings.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port ?? 0, host, () => resolve());
  });
  return {
    url: urlOf(host, (server.address() as AddressInfo).port),
    close: async () => {
      await graphql.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The generated gRPC server of `folder` answering every method of the services its `_pb.js` files (`pbFiles`, relative) declare. */
export async function serveGrpcMock(folder: string, pbFiles: readonly string[], settings: MockListenSettings): Promise<ServedMock> {
  const services: DescService[] = [];
  for (const file of pbFiles) {
    const module = (await import(pathToFileURL(join(folder, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(module))
      if (typeof value === 'object' && value !== null && (value as DescService).kind === 'service') services.push(value as DescService);
  }
  const module = (await import(pathToFileURL(join(folder, 'server.js')).href)) as GrpcServerModule;
  const grpc = module.createGrpcServer(grpcMockServices(services, { seed: settings.seed }) as never);
  const host = settings.host ?? '127.0.0.1';
  const port = await grpc.listen(settings.port ?? 0, host);
  return { url: urlOf(host, port), close: () => grpc.close() };
}
