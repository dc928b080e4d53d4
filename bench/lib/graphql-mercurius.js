// The Mercurius peer of the `graphql-server` benchmark: Fastify 5 with Mercurius and its JIT on
// (`jit: 1`: graphql-jit compiles a query the first time it runs again, so every measured request
// runs compiled code), serving schemas/graphql/tasks.graphql with the shared in-memory resolvers
// (bench/lib/graphql-resolvers.js). GraphiQL off, Fastify's logger off; Mercurius's defaults
// otherwise (its LRU cache of parsed and validated queries on). Like Yoga it has no depth or
// complexity limit by default and does not enforce the schema's `@auth` directive; the benchmarked
// query touches no `@auth` field. Like the other peers it prints `listening on
// http://127.0.0.1:<port>` as its first line and stops on SIGTERM/SIGINT.
//
//   PORT=0 node bench/lib/graphql-mercurius.js
import Fastify from 'fastify';
import mercurius from 'mercurius';
import { resolvers, typeDefs } from './graphql-resolvers.js';

const app = Fastify({ logger: false });
app.register(mercurius, {
  schema: typeDefs,
  resolvers,
  jit: 1,
  graphiql: false,
  path: '/graphql',
  /** @returns {import('./graphql-resolvers.js').Context} */
  context: () => ({ viewerId: null }),
});

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`listening on ${address}\n`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    app.close().then(() => process.exit(0));
  });
}
