/**
 * The REST example end to end (support/rest-e2e-suite.ts) with the API mounted in Fastify (plugin
 * under the /v1 prefix), Hono (Fetch handler, on node via @hono/node-server), Express and Koa
 * (middleware): `MOUNT=<mount> npm run example:rest`, every operation and every error through the
 * generated client, every response checked by ajv.
 */
import { describe } from 'vitest';
import { MOUNTS } from '../examples/rest/mounts.js';
import { restE2eSuite } from './support/rest-e2e-suite.js';

for (const mount of MOUNTS.filter((mount) => mount !== 'listener')) describe(`mounted in ${mount}`, () => restE2eSuite(mount));
