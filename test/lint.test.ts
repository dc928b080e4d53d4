/**
 * `codegen lint`: one test per rule over a minimal document that triggers it (exact file:line:col),
 * the embedded schemas/ clean, config and inline suppressions, and the CLI's formats and exit codes
 * through the real CLI (SARIF validated against the SARIF 2.1.0 JSON schema).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../generators/core/config/config.js';
import { README_RULES_BEGIN, README_RULES_END, rulesMarkdown } from '../generators/lint/docs.js';
import { RULES } from '../generators/lint/registry.js';
import { lintTarget, type LintTarget } from '../generators/lint/run.js';
import { styleOfInput } from '../generators/core/config/detect.js';
import { codegen, ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'lint');

/** The findings of every rule (those off by default turned on by `lint`) over one fixture, as `line:col rule-id`. */
async function lintFixture(name: string, lint?: LintTarget['lint']): Promise<string[]> {
  const file = join(FIXTURES, name);
  const style = styleOfInput(file);
  if (!style) throw new Error(`no style for ${name}`);
  const result = await lintTarget({ name, style, inputs: [file], root: FIXTURES, readRoots: [FIXTURES], lint });
  return result.findings.map((finding) => `${finding.location.file}:${finding.location.line}:${finding.location.column} ${finding.ruleId}`);
}

/** Each rule, the fixture that triggers it, and exactly where (other places in it must pass). */
const CASES: Record<string, { fixture: string; at: string[] }> = {
  'rest/no-verbs-in-paths': { fixture: 'rest-no-verbs-in-paths.yaml', at: ['4:3'] },
  'rest/no-post-for-read': { fixture: 'rest-no-post-for-read.yaml', at: ['5:5'] },
  'rest/max-nesting': { fixture: 'rest-max-nesting.yaml', at: ['4:3'] },
  'rest/create-returns-201': { fixture: 'rest-create-returns-201.yaml', at: ['13:9', '23:9'] },
  'rest/delete-without-body': { fixture: 'rest-delete-without-body.yaml', at: ['8:7', '13:9'] },
  'rest/problem-details': { fixture: 'rest-problem-details.yaml', at: ['22:9'] },
  'rest/idempotency-key': { fixture: 'rest-idempotency-key.yaml', at: ['5:5'] },
  'rest/pagination-style': { fixture: 'rest-pagination-style.yaml', at: ['5:5', '17:11'] },
  'rest/no-secrets-in-query': { fixture: 'rest-no-secrets-in-query.yaml', at: ['10:11', '27:11'] },
  'rest/errors-not-200': { fixture: 'rest-errors-not-200.yaml', at: ['9:9'] },
  'rest/rate-limit-429': { fixture: 'rest-rate-limit-429.yaml', at: ['8:7'] },
  'rest/conditional-get': { fixture: 'rest-conditional-get.yaml', at: ['9:9'] },
  'rest/query-conventions': { fixture: 'rest-query-conventions.yaml', at: ['9:11', '10:11', '11:11'] },
  'graphql/subscription-arguments': { fixture: 'graphql-subscription-arguments.graphql', at: ['6:3'] },
  'graphql/paginate-lists': { fixture: 'graphql-paginate-lists.graphql', at: ['2:3'] },
  'graphql/mutation-payload': { fixture: 'graphql-mutation-payload.graphql', at: ['7:3'] },
  'graphql/deprecated-reason': { fixture: 'graphql-deprecated-reason.graphql', at: ['7:16'] },
  'grpc/package-version': { fixture: 'proto-package-version.proto', at: ['3:1'] },
  'grpc/unique-rpc-messages': { fixture: 'proto-unique-rpc-messages.proto', at: ['19:16', '21:16', '21:31'] },
  'grpc/enum-zero-unspecified': { fixture: 'proto-enum-zero-unspecified.proto', at: ['6:3'] },
  'grpc/field-names': { fixture: 'proto-field-names.proto', at: ['7:10'] },
  'grpc/browser-streaming': { fixture: 'proto-browser-streaming/uploads.proto', at: ['26:5'] },
  'realtime/sse-retry': { fixture: 'realtime-sse-retry.asyncapi.yaml', at: ['6:3'] },
  'realtime/sse-resume': { fixture: 'realtime-sse-resume.asyncapi.yaml', at: ['6:3'] },
  'realtime/websocket-auth': { fixture: 'realtime-websocket-auth.asyncapi.yaml', at: ['6:3'] },
  'realtime/message-discriminator': { fixture: 'realtime-message-discriminator.asyncapi.yaml', at: ['9:3'] },
  'realtime/bounded-client-payloads': { fixture: 'realtime-bounded-client-payloads.asyncapi.yaml', at: ['13:7'] },
};

describe('lint rules', () => {
  it('every rule has a case below, and ids are unique', () => {
    expect(Object.keys(CASES).sort()).toEqual(RULES.map((rule) => rule.id).sort());
    expect(new Set(RULES.map((rule) => rule.id)).size).toBe(RULES.length);
  });

  for (const rule of RULES) {
    it(`${rule.id}: reported at its exact location, citing the seed`, async () => {
      const { fixture, at } = CASES[rule.id] ?? { fixture: '', at: [] };
      // A rule off by default is checked turned on (warn); by default it reports nothing.
      const lint = rule.severity === 'off' ? { rules: { [rule.id]: 'warn' as const } } : undefined;
      if (lint) expect((await lintFixture(fixture)).filter((finding) => finding.endsWith(` ${rule.id}`))).toEqual([]);
      const findings = await lintFixture(fixture, lint);
      expect(findings.filter((finding) => finding.endsWith(` ${rule.id}`))).toEqual(at.map((where) => `${fixture}:${where} ${rule.id}`));
      const file = join(FIXTURES, fixture);
      const style = styleOfInput(file);
      const result = await lintTarget({ name: fixture, style: style!, inputs: [file], root: FIXTURES, readRoots: [FIXTURES], lint });
      for (const finding of result.findings.filter((f) => f.ruleId === rule.id)) {
        expect(finding.severity).toBe(rule.severity === 'off' ? 'warning' : rule.severity);
        expect(finding.message).toMatch(/§\d/);
      }
    });
  }

  it('the embedded schemas/ follow the conventions: no finding', async () => {
    const apis = await loadConfig(join(ROOT, 'codegen.config.yaml'));
    for (const api of apis) {
      const result = await lintTarget({ ...api, options: api.options as Record<string, never> } as Parameters<typeof lintTarget>[0]);
      expect(result.findings, api.name).toEqual([]);
    }
  });

  it('inline suppressions: x-codegen-lint-disable (OpenAPI, AsyncAPI), # and // codegen-lint-disable comments', async () => {
    // Each fixture holds a second case the rule would report but for the suppression.
    expect(await lintFixture('rest-idempotency-key.yaml')).not.toContain('rest-idempotency-key.yaml:16:5 rest/idempotency-key');
    expect((await lintFixture('graphql-paginate-lists.graphql')).filter((f) => f.endsWith('/paginate-lists'))).toHaveLength(1);
    expect((await lintFixture('proto-field-names.proto')).filter((f) => f.endsWith('/field-names'))).toHaveLength(1);
    expect(
      (await lintFixture('realtime-bounded-client-payloads.asyncapi.yaml')).filter((f) => f.endsWith('/bounded-client-payloads')),
    ).toHaveLength(1);
  });

  it('lint.rules in the config turns rules off and changes severities', async () => {
    const dir = tempDir('codegen-lint-');
    cpSync(join(FIXTURES, 'rest-pagination-style.yaml'), join(dir, 'api.yaml'));
    writeFileSync(
      join(dir, 'codegen.config.yaml'),
      'apis:\n  - input: api.yaml\n    output: out\n    lint:\n      rules:\n        rest/pagination-style: error\n        rest/problem-details: off\n',
    );
    const [api] = await loadConfig(join(dir, 'codegen.config.yaml'));
    expect(api?.lint).toEqual({ rules: { 'rest/pagination-style': 'error', 'rest/problem-details': 'off' } });
    const result = await lintTarget({ ...api!, options: {} });
    expect(result.findings.map((f) => `${f.severity} ${f.ruleId}`)).toEqual(['error rest/pagination-style', 'error rest/pagination-style']);
  });

  it('lint config mistakes are located errors with a suggestion', async () => {
    const dir = tempDir('codegen-lint-');
    writeFileSync(join(dir, 'api.yaml'), 'openapi: 3.1.0\n');
    writeFileSync(
      join(dir, 'codegen.config.yaml'),
      'apis:\n  - input: api.yaml\n    output: out\n    lint:\n      rules:\n        rest/max-nest: off\n        rest/max-nesting: warning\n      rulez: {}\n',
    );
    const problem = await loadConfig(join(dir, 'codegen.config.yaml')).catch((error: Error) => error.message);
    expect(problem).toContain('codegen.config.yaml:6:9: error: apis[0].lint.rules.rest/max-nest: unknown lint rule "rest/max-nest"');
    expect(problem).toContain('did you mean "rest/max-nesting"?');
    expect(problem).toContain(
      'codegen.config.yaml:7:27: error: apis[0].lint.rules.rest/max-nesting: expected off, warn or error, not "warning"',
    );
    expect(problem).toContain('codegen.config.yaml:8:7: error: apis[0].lint.rulez: unknown key "rulez"');
  });

  it('README lists exactly the rules the rule files declare', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const begin = readme.indexOf(README_RULES_BEGIN);
    const end = readme.indexOf(README_RULES_END);
    expect(begin, 'README.md has no lint rules section').toBeGreaterThan(-1);
    // On failure, paste rulesMarkdown()'s text (the expected value below) over the README's section.
    expect(readme.slice(begin, end + README_RULES_END.length)).toBe(rulesMarkdown());
  });
});

describe('codegen lint (CLI)', () => {
  it('human format: file:line:col, severity, rule id, message and a code frame; exit 0 on warnings', () => {
    const result = codegen(['lint', 'test/fixtures/lint/rest-max-nesting.yaml']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'test/fixtures/lint/rest-max-nesting.yaml:4:3: warning rest/max-nesting: path /v1/projects/{projectId}/tasks/{taskId}/comments nests 3 collections',
    );
    expect(result.stdout).toContain('> 4 |   /v1/projects/{projectId}/tasks/{taskId}/comments:\n    |   ^');
    expect(result.stdout).toContain('codegen lint: 1 problem(s) (0 error(s), 1 warning(s)) in 1 API(s)');
  });

  it('exit 1 on errors; --max-warnings turns too many warnings into exit 1', () => {
    expect(codegen(['lint', 'test/fixtures/lint/rest-no-secrets-in-query.yaml']).code).toBe(1);
    expect(codegen(['lint', 'test/fixtures/lint/rest-create-returns-201.yaml', '--max-warnings', '2']).code).toBe(0);
    const over = codegen(['lint', 'test/fixtures/lint/rest-create-returns-201.yaml', '--max-warnings', '1']);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('codegen lint: 2 warning(s), more than --max-warnings 1');
    expect(codegen(['lint', 'test/fixtures/lint/rest-max-nesting.yaml', '--max-warnings', 'many']).code).toBe(2);
    expect(codegen(['lint', 'test/fixtures/lint/rest-max-nesting.yaml', '--format', 'xml']).code).toBe(2);
  });

  it('--help lists every rule with its default severity', () => {
    const result = codegen(['lint', '--help']);
    expect(result.code).toBe(0);
    for (const rule of RULES) expect(result.stdout).toMatch(new RegExp(`${rule.id}\\s+${rule.severity}`));
  });

  it("a file named on the command line is linted with its API's settings from the config", () => {
    const dir = tempDir('codegen-lint-');
    cpSync(join(FIXTURES, 'rest-no-secrets-in-query.yaml'), join(dir, 'api.yaml'));
    expect(codegen(['lint', 'api.yaml'], dir).code).toBe(1);
    writeFileSync(
      join(dir, 'codegen.config.yaml'),
      'apis:\n  - input: api.yaml\n    output: out\n    lint: { rules: { rest/no-secrets-in-query: warn } }\n',
    );
    const result = codegen(['lint', 'api.yaml'], dir);
    expect(result.stdout).toContain('api.yaml:10:11: warning rest/no-secrets-in-query');
    expect(result.code).toBe(0);
  });

  it("rest/no-secrets-in-query: a prefixed password or secret is a secret (Ceph's mutual_password), a page_token is not", async () => {
    const dir = tempDir('codegen-lint-');
    const file = join(dir, 'api.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.0.3',
        'info: { title: Secrets, version: 1.0.0 }',
        'paths:',
        '  /targets:',
        '    put:',
        '      parameters:',
        '        - { name: mutual_password, in: query, schema: { type: string } }',
        '        - { name: client-secret, in: query, schema: { type: string } }',
        '        - { name: page_token, in: query, schema: { type: string } }',
        '        - { name: secret_name, in: query, schema: { type: string } }',
        '      responses:',
        "        '204': { description: Done. }",
        '',
      ].join('\n'),
    );
    const result = await lintTarget({ name: 'api', style: 'openapi', inputs: [file], root: dir, readRoots: [dir] });
    const secrets = result.findings.filter((finding) => finding.ruleId === 'rest/no-secrets-in-query');
    expect(secrets.map((finding) => `${finding.location.line}:${finding.location.column}`)).toEqual(['7:11', '8:11']);
  });

  it("every API of the config by default: the repository's own is clean (exit 0)", () => {
    const result = codegen(['lint']);
    expect(result.stdout).toContain('codegen lint: no problems in 4 API(s)');
    expect(result.code).toBe(0);
  });

  it('a document the generator refuses: its located errors, exit 1', () => {
    const dir = tempDir('codegen-lint-');
    writeFileSync(join(dir, 'api.yaml'), 'openapi: 3.1.0\ninfo: { title: T, version: 1.0.0 }\npaths:\n  tasks: {}\n');
    const result = codegen(['lint', 'api.yaml'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('api.yaml:4:3: error: path "tasks" must start with "/"');
  });

  it('--format json', () => {
    const result = codegen(['lint', 'test/fixtures/lint/graphql-deprecated-reason.graphql', '--format', 'json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ errorCount: 0, warningCount: 1 });
    expect(report.apis[0].findings).toEqual([
      {
        ruleId: 'graphql/deprecated-reason',
        severity: 'warning',
        file: 'test/fixtures/lint/graphql-deprecated-reason.graphql',
        line: 7,
        column: 16,
        message: expect.stringContaining('@deprecated(reason:'),
      },
    ]);
  });

  it('--format sarif validates against the SARIF 2.1.0 JSON schema', () => {
    const result = codegen([
      'lint',
      'test/fixtures/lint/rest-no-secrets-in-query.yaml',
      'test/fixtures/lint/proto-unique-rpc-messages.proto',
      '--format',
      'sarif',
    ]);
    expect(result.code).toBe(1);
    const log = JSON.parse(result.stdout);
    const schema = JSON.parse(
      readFileSync(join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8'),
    );
    // The package is CommonJS: its class is the default export's `default`.
    const ajv = new AjvModule.default({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false });
    const validate = ajv.compile(schema);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // It can fail: a result without its message is refused.
    const broken = structuredClone(log);
    delete broken.runs[0].results[0].message;
    expect(validate(broken)).toBe(false);
    expect(log.runs[0].results).toHaveLength(5);
    expect(log.runs[0].results[0]).toMatchObject({
      ruleId: 'rest/no-secrets-in-query',
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'test/fixtures/lint/rest-no-secrets-in-query.yaml' },
            region: { startLine: 10, startColumn: 11 },
          },
        },
      ],
    });
    expect(log.runs[0].tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual(RULES.map((rule) => rule.id));
  });
});

/** `line:col rule-id` of the findings of `rules` over an inline document (written to a temporary folder). */
async function lintInline(name: string, lines: string[], rules: string[], lint?: LintTarget['lint']): Promise<string[]> {
  const dir = tempDir('codegen-lint-');
  const file = join(dir, name);
  writeFileSync(file, [...lines, ''].join('\n'));
  const result = await lintTarget({ name, style: styleOfInput(file)!, inputs: [file], root: dir, readRoots: [dir], lint });
  return result.findings
    .filter((finding) => rules.includes(finding.ruleId))
    .map((finding) => `${finding.location.line}:${finding.location.column} ${finding.ruleId}`);
}

describe('rule fixes from the corpus run (bench/lint-corpus.md)', () => {
  it('one notion of an action segment: no-verbs-in-paths reports it, max-nesting does not count it, idempotency-key asks a key only of one that creates or repeats', async () => {
    const post = (path: string, method = 'post') => [
      `  ${path}:`,
      `    ${method}:`,
      `      parameters: [${[...path.matchAll(/\{(\w+)\}/g)].map((match) => `{ name: ${match[1]}, in: path, required: true, schema: { type: string } }`).join(', ')}]`,
      `      requestBody: { content: { application/json: { schema: { type: object } } } }`,
      "      responses: { '204': { description: Done. } }",
    ];
    const findings = await lintInline(
      'api.yaml',
      [
        'openapi: 3.1.0',
        'info: { title: Actions, version: 1.0.0 }',
        'paths:',
        ...post('/tasks/{taskId}:archive'), // 4
        ...post('/tasks/{taskId}/archive'), // 9
        ...post('/user/validate_password'), // 14
        ...post('/trash/purge'), // 19
        ...post('/projects/{projectId}/tasks/{taskId}/merge'), // 24
        ...post('/images/{imageId}/copy'), // 29: an action that creates
        ...post('/messages/{messageId}/send'), // 34: an action that repeats
        ...post('/repos/{owner}/{repo}/check-runs'), // 39: a collection named by a compound noun
        ...post('/projects/{projectId}/tasks/{taskId}/comments'), // 44: three collections deep
        ...post('/images/{imageId}/clone_format_version', 'put'), // 49: a thing (no POST), not an action
        ...post('/auth/check'), // 54: "auth" is a namespace here, "check" the action
      ],
      ['rest/no-verbs-in-paths', 'rest/max-nesting', 'rest/idempotency-key'],
    );
    expect(findings).toEqual([
      '4:3 rest/no-verbs-in-paths',
      '9:3 rest/no-verbs-in-paths',
      '14:3 rest/no-verbs-in-paths',
      '19:3 rest/no-verbs-in-paths',
      '24:3 rest/no-verbs-in-paths',
      '29:3 rest/no-verbs-in-paths',
      '30:5 rest/idempotency-key',
      '34:3 rest/no-verbs-in-paths',
      '35:5 rest/idempotency-key',
      '40:5 rest/idempotency-key',
      '44:3 rest/max-nesting',
      '45:5 rest/idempotency-key',
      '54:3 rest/no-verbs-in-paths',
    ]);
  });

  it("rest/conditional-get: only a GET of one resource, a member of a declared collection or one object (not ceph's /grafana/validation/{params})", async () => {
    const get = (path: string, schema: string) => [
      `  ${path}:`,
      '    get:',
      `      parameters: [${[...path.matchAll(/\{(\w+)\}/g)].map((match) => `{ name: ${match[1]}, in: path, required: true, schema: { type: string } }`).join(', ')}]`,
      `      responses: { '200': { description: OK., content: { application/json: ${schema} } } }`,
    ];
    const findings = await lintInline(
      'api.yaml',
      [
        'openapi: 3.1.0',
        'info: { title: Caching, version: 1.0.0 }',
        'paths:',
        ...get('/grafana/validation/{params}', '{}'), // 4: a check's input, no schema
        ...get('/tasks', '{ schema: { type: array } }'), // 8
        ...get('/tasks/{taskId}', '{}'), // 12: a member of /tasks
        ...get('/reports/{reportId}', '{ schema: { type: object } }'), // 16: one object
        ...get('/images/{imageId}', '{ schema: { type: array } }'), // 20: a list
      ],
      ['rest/conditional-get'],
    );
    expect(findings).toEqual(['15:20 rest/conditional-get', '19:20 rest/conditional-get']);
  });

  it("rest/pagination-style: a list is what returns an array or wraps one; a list the caller names (ceph's ?names=) needs no paging", async () => {
    const get = (path: string, query: string, schema: string) => [
      `  ${path}:`,
      '    get:',
      `      parameters: [${query}]`,
      `      responses: { '200': { description: OK., content: { application/json: { schema: ${schema} } } } }`,
    ];
    const findings = await lintInline(
      'api.yaml',
      [
        'openapi: 3.1.0',
        'info: { title: Lists, version: 1.0.0 }',
        'paths:',
        ...get('/settings', '{ name: names, in: query, schema: { type: string } }', '{ type: array }'), // 4: named by the caller
        ...get('/tasks', '', '{ type: object, properties: { tasks: { type: array } } }'), // 8: wraps its collection
        ...get('/pets', '', '{ type: object, properties: { all: { type: array } } }'), // 12: wraps one array
        ...get('/health', '', '{ type: object, properties: { status: { type: string }, checks: { type: array } } }'), // 16: one resource
        ...get('/notes', '{ name: noteIds, in: query, schema: { type: array } }', '{ type: array }'), // 20: named by the caller
      ],
      ['rest/pagination-style'],
    );
    expect(findings).toEqual(['9:5 rest/pagination-style', '13:5 rest/pagination-style']);
  });

  it("grpc/enum-zero-unspecified: a zero value ending in _UNSPECIFIED passes (datastore's nested STRATEGY_UNSPECIFIED); UNKNOWN = 0 still warns", async () => {
    const findings = await lintInline(
      'api.proto',
      [
        'syntax = "proto3";',
        'package acme.tasks.v1;',
        'message Mutation {',
        '  enum ConflictResolutionStrategy {',
        '    STRATEGY_UNSPECIFIED = 0;',
        '    SERVER_VALUE = 1;',
        '  }',
        '  ConflictResolutionStrategy strategy = 1;',
        '}',
        'enum Health {',
        '  UNKNOWN = 0;',
        '  SERVING = 1;',
        '}',
      ],
      ['grpc/enum-zero-unspecified'],
    );
    expect(findings).toEqual(['11:3 grpc/enum-zero-unspecified']);
  });

  it("realtime/websocket-auth: a token field in a message clients send is auth (Kraken's subscribe.subscription.token); a page token is not", async () => {
    const channel = (name: string, property: string) => [
      `  ${name}:`,
      `    address: /${name}`,
      "    servers: [{ $ref: '#/servers/ws' }]",
      `    messages: { ${name}Message: { payload: { type: object, properties: { subscription: { type: object, properties: { ${property}: { type: string, maxLength: 100 } } } } } } }`,
    ];
    const operation = (name: string) => [`  receive${name}:`, '    action: receive', `    channel: { $ref: '#/channels/${name}' }`];
    const findings = await lintInline(
      'api.asyncapi.yaml',
      [
        'asyncapi: 3.0.0',
        'info: { title: Auth, version: 1.0.0 }',
        'servers:',
        '  ws: { host: localhost:8080, protocol: ws }',
        'channels:',
        ...channel('private', 'token'), // 6
        ...channel('paged', 'pageToken'), // 10
        'operations:',
        ...operation('private'),
        ...operation('paged'),
      ],
      ['realtime/websocket-auth'],
    );
    expect(findings).toEqual(['10:3 realtime/websocket-auth']);
  });

  it('rest/query-conventions: "query" is a filter only where a list is returned (not ceph\'s GET /api/rgw/site?query=)', async () => {
    const findings = await lintInline(
      'api.yaml',
      [
        'openapi: 3.1.0',
        'info: { title: Queries, version: 1.0.0 }',
        'paths:',
        '  /site:',
        '    get:',
        '      parameters: [{ name: query, in: query, schema: { type: string } }]',
        "      responses: { '200': { description: OK., content: { application/json: { schema: { type: object } } } } }",
        '  /tasks:',
        '    get:',
        '      parameters: [{ name: query, in: query, schema: { type: string } }]',
        "      responses: { '200': { description: OK., content: { application/json: { schema: { type: array } } } } }",
      ],
      ['rest/query-conventions'],
    );
    expect(findings).toEqual(['10:20 rest/query-conventions']);
  });

  it("realtime/message-discriminator names the messages that pin the same value (Slack's botAdded and botChanged)", async () => {
    const dir = tempDir('codegen-lint-');
    const file = join(dir, 'api.asyncapi.yaml');
    writeFileSync(
      file,
      [
        'asyncapi: 3.0.0',
        'info: { title: Kinds, version: 1.0.0 }',
        'servers:',
        "  ws: { host: localhost:8080, protocol: ws, security: [{ $ref: '#/components/securitySchemes/token' }] }",
        'channels:',
        '  feed:',
        '    address: /feed',
        "    servers: [{ $ref: '#/servers/ws' }]",
        '    messages:',
        '      botAdded: { payload: { type: object, properties: { type: { const: bot_added }, id: { type: integer } } } }',
        '      botChanged: { payload: { type: object, properties: { type: { const: bot_added }, name: { type: string } } } }',
        'operations:',
        '  sendFeed:',
        '    action: send',
        "    channel: { $ref: '#/channels/feed' }",
        'components:',
        '  securitySchemes:',
        '    token: { type: httpApiKey, name: token, in: query }',
        '',
      ].join('\n'),
    );
    const result = await lintTarget({ name: 'api', style: 'asyncapi', inputs: [file], root: dir, readRoots: [dir] });
    const messages = result.findings
      .filter((finding) => finding.ruleId === 'realtime/message-discriminator')
      .map((finding) => finding.message);
    expect(messages).toEqual([
      expect.stringContaining('feed carries several messages: botAdded and botChanged both pin type to "bot_added"'),
    ]);
  });
});
