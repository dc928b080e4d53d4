/**
 * The GraphQL example end to end (support/graphql-e2e-suite.ts) with the endpoint mounted in
 * Fastify (plugin under the /graphql prefix), Express and Koa (middleware): `MOUNT=<mount> npm run
 * example:graphql`, queries, mutations, subscriptions over WebSocket, limits, persisted-only mode.
 */
import { describe } from 'vitest';
import { MOUNTS } from '../examples/graphql/mounts.js';
import { graphqlE2eSuite } from './support/graphql-e2e-suite.js';

for (const mount of MOUNTS.filter((mount) => mount !== 'listener')) describe(`mounted in ${mount}`, () => graphqlE2eSuite(mount));
