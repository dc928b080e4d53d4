/**
 * The generated REST server core on its own node:http listener: every rule (support/server-suite.ts).
 * The same suite runs with the server mounted in Fastify, Hono, Express and Koa in
 * server-mounts.test.ts.
 */
import { serverSuite } from './support/server-suite.js';

serverSuite('listener');
