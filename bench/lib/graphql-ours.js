// The generated side of the `graphql-server` benchmark: out/graphql/server.ts (the server codegen
// generates from schemas/graphql/tasks.graphql, run in place through bench/lib/ts-register.js) with
// the shared in-memory resolvers (bench/lib/graphql-resolvers.js) and its default options, so its
// limits (depth, complexity) and `@auth` checks stay on. Like the REST peers it prints
// `listening on http://127.0.0.1:<port>` as its first line and stops on SIGTERM/SIGINT.
//
//   PORT=0 node --import=./bench/lib/ts-register.js bench/lib/graphql-ours.js
import { createServer } from 'node:http';
import { createGraphQLServer } from '../../out/graphql/server.js';
import { resolvers } from './graphql-resolvers.js';

/** @type {{ listener: import('node:http').RequestListener }} */
const graphql = createGraphQLServer(resolvers, {
  /** @returns {import('./graphql-resolvers.js').Context} */
  context: () => ({ viewerId: null }),
});

const server = createServer(graphql.listener);
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
