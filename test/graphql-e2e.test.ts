/**
 * The GraphQL example end to end on its own node:http listener (support/graphql-e2e-suite.ts).
 * graphql-e2e-mounts.test.ts runs the same suite with the endpoint mounted in Fastify, Express, Koa.
 */
import { graphqlE2eSuite } from './support/graphql-e2e-suite.js';

graphqlE2eSuite('listener');
