/**
 * What the mock sample tests share: an API of one fixture under test/fixtures/mock (REST, served by
 * `startMock`), and ajv (2020-12, with formats), the field's judge of the values built.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ApiConfig } from '../../generators/core/config/config.js';
import { ROOT } from './cli.js';

const require = createRequire(import.meta.url);

export const MOCK_FIXTURES = join(ROOT, 'test', 'fixtures', 'mock');

/** The REST API of `test/fixtures/mock/<file>`, as `codegen mock` would serve it. */
export function mockFixtureApi(name: string, file: string): ApiConfig {
  return {
    name,
    inputs: [join(MOCK_FIXTURES, file)],
    style: 'openapi',
    documents: [],
    output: join(MOCK_FIXTURES, 'unused'),
    emit: ['types', 'validators', 'server'],
    options: {},
    root: MOCK_FIXTURES,
  };
}

/** ajv for JSON Schema 2020-12 with the formats, reporting every error. */
export function ajv2020(): import('ajv').default {
  const Ajv = require('ajv/dist/2020.js') as typeof import('ajv').default;
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}
