/**
 * Every rule of the REST core (support/server-suite.ts) with the generated server mounted in a
 * framework's app: the Fastify plugin, the Fetch handler in Hono (on node, `@hono/node-server`),
 * Express middleware, Koa middleware.
 */
import { describe } from 'vitest';
import { MOUNTS } from './support/server-module.js';
import { serverSuite } from './support/server-suite.js';

for (const mount of MOUNTS.filter((mount) => mount !== 'listener')) describe(`mounted in ${mount}`, () => serverSuite(mount));
