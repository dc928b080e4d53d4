/**
 * The REST example end to end on its own node:http listener (support/rest-e2e-suite.ts): the
 * generated client round-trips every operation, every response checked by ajv against the
 * document. rest-e2e-mounts.test.ts runs the same suite with the API mounted in each framework.
 */
import { restE2eSuite } from './support/rest-e2e-suite.js';

restE2eSuite('listener');
