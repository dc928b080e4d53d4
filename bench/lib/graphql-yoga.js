// The graphql-yoga peer of the `graphql-server` benchmark: schemas/graphql/tasks.graphql with the
// shared in-memory resolvers (bench/lib/graphql-resolvers.js), on node:http, with yoga's defaults
// for a production server (error masking on; GraphiQL and the landing page off, as the generated
// server has neither). Yoga has no depth or complexity limit by default and does not enforce the
// schema's `@auth` directive; the benchmarked query touches no `@auth` field. Like the REST peers
// it prints `listening on http://127.0.0.1:<port>` as its first line and stops on SIGTERM/SIGINT.
//
//   PORT=0 node bench/lib/graphql-yoga.js
import { createServer } from 'node:http';
import { createSchema, createYoga } from 'graphql-yoga';
import { resolvers, typeDefs } from './graphql-resolvers.js';

const yoga = createYoga({
  schema: createSchema({ typeDefs, resolvers }),
  graphqlEndpoint: '/graphql',
  graphiql: false,
  landingPage: false,
  logging: false,
  /** @returns {import('./graphql-resolvers.js').Context} */
  context: () => ({ viewerId: null }),
});

const server = createServer(yoga);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
