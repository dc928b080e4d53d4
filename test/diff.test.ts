/**
 * `codegen diff`: one pair of documents per change kind and style (test/fixtures/diff/<style>/: a
 * base and one changed copy per case), each change asserted with its class and its exact
 * file:line:col; then the CLI end to end (formats, exit codes, git:REF against a real repository).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import type { Change } from '../generators/diff/changes.js';
import { diffSides, sideOf } from '../generators/diff/index.js';
import { codegen, ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'diff');

async function changesOf(style: string, oldName: string, newName: string): Promise<Change[]> {
  const folder = join(FIXTURES, style);
  const side = (name: string) => ({ ...sideOf(join(folder, name)), displayRoot: folder });
  return (await diffSides(side(oldName), side(newName))).changes;
}

const summary = (c: Change) =>
  `${c.kind} ${c.class}${c.versioned ? ' versioned' : ''} ${c.location ? `${c.location.file}:${c.location.line}:${c.location.column}` : '-'}`;

describe('codegen diff: OpenAPI, one case per change kind', () => {
  const cases: [string, string[], string?][] = [
    ['operation-removed', ['operation-removed breaking base.yaml:44:5']],
    ['parameter-became-required', ['parameter-became-required breaking parameter-became-required.yaml:10:11']],
    ['required-parameter-added', ['required-parameter-added breaking required-parameter-added.yaml:14:11']],
    ['request-enum-value-removed', ['request-enum-value-removed breaking request-enum-value-removed.yaml:59:7']],
    ['response-enum-value-added', ['response-enum-value-added dangerous response-enum-value-added.yaml:59:7']],
    ['request-max-length-narrowed', ['request-max-length-narrowed breaking request-max-length-narrowed.yaml:78:11']],
    ['request-property-became-required', ['request-property-became-required breaking request-property-became-required.yaml:79:9']],
    ['response-property-removed', ['response-property-removed breaking base.yaml:70:9']],
    ['response-type-changed', ['response-type-changed breaking response-type-changed.yaml:65:11']],
    ['response-removed', ['response-removed breaking base.yaml:37:9', 'response-added dangerous response-removed.yaml:37:9']],
    [
      'safe-additions',
      [
        'optional-parameter-added safe safe-additions.yaml:14:11',
        'operation-added safe safe-additions.yaml:48:5',
        'response-property-added safe safe-additions.yaml:87:9',
      ],
    ],
    [
      'response-one-of-variant-added',
      ['response-oneof-variant-added dangerous response-one-of-variant-added.yaml:73:11'],
      'one-of-base.yaml',
    ],
    // Wire-identical rewrites: a path parameter renamed, an object split into allOf parts.
    ['path-parameter-renamed', []],
    // §9.1's header switch: an operation that now names its version in a header may break.
    [
      'version-header',
      [
        'required-parameter-added breaking versioned version-header.yaml:10:11',
        'parameter-became-required breaking versioned version-header.yaml:15:11',
      ],
    ],
    ['all-of-same-shape', []],
    // additionalProperties by direction: requests may only open, responses only close; map values compared.
    [
      'additional-properties-closed',
      [
        'request-additional-properties-closed breaking additional-properties-closed.yaml:75:7',
        'response-additional-properties-closed safe additional-properties-closed.yaml:62:7',
      ],
    ],
    [
      'map-value-narrowed',
      [
        'response-additional-properties-opened dangerous map-value-narrowed.yaml:32:7',
        'request-max-length-narrowed breaking map-value-narrowed.yaml:41:9',
      ],
      'maps-base.yaml',
    ],
    [
      'request-additional-properties-opened',
      ['request-additional-properties-opened safe request-additional-properties-opened.yaml:38:7'],
      'maps-base.yaml',
    ],
    // Value rules (oasdiff's multipleOf/default checks) and a renamed operationId (wire-identical, code-breaking).
    [
      'value-rules-and-rename',
      [
        'operation-renamed dangerous value-rules-and-rename.yaml:47:7',
        'request-multiple-of-narrowed breaking value-rules-and-rename.yaml:14:11',
        'request-default-changed dangerous value-rules-and-rename.yaml:14:11',
      ],
    ],
    // Unions: the tag property, the schema a tag value selects, a response enum lifted.
    [
      'union-changes',
      [
        'response-enum-removed dangerous union-changes.yaml:58:7',
        'response-discriminator-value-changed breaking union-changes.yaml:75:11',
        'response-discriminator-value-added dangerous union-changes.yaml:75:11',
      ],
      'union-base.yaml',
    ],
    [
      'discriminator-property-changed',
      ['response-discriminator-property-changed breaking discriminator-property-changed.yaml:76:11'],
      'union-base.yaml',
    ],
    [
      'media-types-added',
      [
        'parameter-deprecated safe media-types-added.yaml:14:11',
        'request-media-type-added safe media-types-added.yaml:37:11',
        'response-media-type-added safe media-types-added.yaml:47:13',
      ],
    ],
    // A readOnly property never travels in a request: adding it as required breaks no client.
    ['read-only-property-added', []],
    ['property-made-read-only', ['request-property-removed dangerous base.yaml:79:9']],
    // codegen's own consequence: the pagination it recognises gives the client an …All() iterator.
    [
      'pagination-removed',
      ['parameter-removed dangerous pagination-base.yaml:14:11', 'pagination-removed dangerous pagination-removed.yaml:7:5'],
      'pagination-base.yaml',
    ],
    // oasdiff's positional prefixItems comparison.
    [
      'tuple-changed',
      ['response-type-changed breaking tuple-changed.yaml:75:15', 'response-prefix-items-removed dangerous tuple-changed.yaml:74:11'],
      'tuple-base.yaml',
    ],
    // Serialisation: explode on a single value writes the same bytes; on an array it does not.
    [
      'parameter-serialisation',
      [
        'parameter-allow-reserved-changed dangerous parameter-serialisation.yaml:10:11',
        'parameter-serialisation-changed safe parameter-serialisation.yaml:15:11',
      ],
    ],
    [
      'parameter-style-changed',
      ['parameter-serialisation-changed breaking parameter-style-changed.yaml:10:11'],
      'parameter-style-base.yaml',
    ],
    [
      'parameter-explode-changed',
      ['parameter-serialisation-changed breaking parameter-explode-changed.yaml:10:11'],
      'parameter-style-base.yaml',
    ],
    ['required-header-added', ['required-parameter-added breaking required-header-added.yaml:14:11']],
    [
      'response-headers-changed',
      [
        'response-header-removed breaking headers-base.yaml:23:13',
        'response-header-became-optional breaking response-headers-changed.yaml:23:13',
        'response-header-removed dangerous headers-base.yaml:31:13',
        'response-header-added safe response-headers-changed.yaml:26:13',
        'response-type-changed breaking response-headers-changed.yaml:23:13',
      ],
      'headers-base.yaml',
    ],
    [
      'server-path-changed',
      ['server-path-changed breaking server-path-changed.yaml:6:5', 'server-added safe server-path-changed.yaml:6:5'],
      'servers-base.yaml',
    ],
    ['server-added', ['server-added safe server-added.yaml:7:5'], 'servers-base.yaml'],
    ['servers-removed', ['server-removed breaking servers-base.yaml:5:1'], 'servers-base.yaml'],
    [
      'server-version-switched',
      ['server-path-changed breaking versioned server-version-switched.yaml:6:5', 'server-added safe server-version-switched.yaml:6:5'],
      'servers-v1-base.yaml',
    ],
    [
      'security-changed',
      [
        'security-added breaking security-changed.yaml:9:7',
        'security-scope-added breaking security-changed.yaml:32:7',
        'security-scheme-changed breaking security-changed.yaml:72:5',
      ],
      'security-base.yaml',
    ],
    // §9.1: the same breaking change under a new version segment is allowed.
    [
      'versioned-path',
      [
        'path-changed breaking versioned versioned-path.yaml:7:5',
        'path-changed breaking versioned versioned-path.yaml:28:5',
        'path-changed breaking versioned versioned-path.yaml:44:5',
        'request-enum-value-removed breaking versioned versioned-path.yaml:59:7',
      ],
    ],
  ];
  for (const [name, expected, from = 'base.yaml'] of cases) {
    it(name, async () => {
      const changes = await changesOf('openapi', from, `${name}.yaml`);
      expect(changes.map(summary).sort()).toEqual([...expected].sort());
      for (const change of changes) {
        expect(change.wire.length).toBeGreaterThan(0);
        expect(change.code.length).toBeGreaterThan(0);
      }
    });
  }

  it('the same document twice: no change', async () => {
    expect(await changesOf('openapi', 'base.yaml', 'base.yaml')).toEqual([]);
  });
});

describe('codegen diff: proto, one case per change kind (with buf breaking categories)', () => {
  const file = (folder: string) => `${folder}/acme/tasks/v1/tasks.proto`;
  const ALL = 'FILE,PACKAGE,WIRE_JSON,WIRE';
  const cases: [string, string[]][] = [
    ['field-removed', [`field-removed breaking ${file('base')}:16:3 ${ALL}`]],
    ['field-removed-reserved', [`field-removed-reserved breaking ${file('base')}:16:3 FILE,PACKAGE,WIRE_JSON`]],
    [
      'field-number-reused',
      [
        `field-number-reused breaking ${file('field-number-reused')}:16:3 FILE,PACKAGE,WIRE_JSON`,
        `field-type-changed breaking ${file('field-number-reused')}:16:3 ${ALL}`,
      ],
    ],
    ['field-renamed-json', [`field-renamed breaking ${file('field-renamed-json')}:13:3 FILE,PACKAGE,WIRE_JSON`]],
    ['field-number-changed', [`field-number-changed breaking ${file('field-number-changed')}:16:3 ${ALL}`]],
    // string ↔ bytes share a wire type: breaking for JSON and source, not for the binary wire.
    ['field-type-changed', [`field-type-changed breaking ${file('field-type-changed')}:13:3 FILE,PACKAGE,WIRE_JSON`]],
    ['field-type-changed-wire', [`field-type-changed breaking ${file('field-type-changed-wire')}:14:3 ${ALL}`]],
    ['field-cardinality-changed', [`field-cardinality-changed breaking ${file('field-cardinality-changed')}:15:3 ${ALL}`]],
    ['field-oneof-changed', [`field-oneof-changed breaking ${file('field-oneof-changed')}:20:3 ${ALL}`]],
    ['reserved-range-removed', [`reserved-range-removed breaking ${file('reserved-range-removed')}:11:1 ${ALL}`]],
    ['enum-value-removed', [`enum-value-removed breaking ${file('base')}:8:3 ${ALL}`]],
    ['enum-value-renamed', [`enum-value-renamed breaking ${file('enum-value-renamed')}:8:3 FILE,PACKAGE,WIRE_JSON`]],
    ['enum-value-added', [`enum-value-added dangerous ${file('enum-value-added')}:9:3 `]],
    [
      'message-removed',
      [`message-removed breaking ${file('base')}:28:1 FILE,PACKAGE`, `rpc-removed breaking ${file('base')}:34:3 FILE,PACKAGE`],
    ],
    ['rpc-removed', [`rpc-removed breaking ${file('base')}:34:3 FILE,PACKAGE`]],
    ['rpc-request-type-changed', [`rpc-request-type-changed breaking ${file('rpc-request-type-changed')}:33:3 ${ALL}`]],
    ['rpc-streaming-changed', [`rpc-streaming-changed breaking ${file('rpc-streaming-changed')}:34:3 ${ALL}`]],
    ['service-removed', [`service-removed breaking ${file('base')}:32:1 FILE,PACKAGE`]],
    ['rpc-response-type-changed', [`rpc-response-type-changed breaking ${file('rpc-response-type-changed')}:33:3 ${ALL}`]],
    ['field-json-name-changed', [`field-json-name-changed breaking ${file('field-json-name-changed')}:13:3 FILE,PACKAGE,WIRE_JSON`]],
    ['field-added', [`field-added safe ${file('field-added')}:17:3 `]],
    // Against options-base (editions 2023, an extension, a google.api.http rule); features compared resolved.
    ['options-extension-removed', [`extension-removed breaking ${file('options-base')}:21:3 FILE,PACKAGE`]],
    ['options-extension-number-changed', [`extension-number-changed breaking ${file('options-extension-number-changed')}:21:3 ${ALL}`]],
    ['options-extension-type-changed', [`extension-type-changed breaking ${file('options-extension-type-changed')}:21:3 ${ALL}`]],
    // Parsers read packed and expanded alike: safe, and buf agrees.
    ['options-field-packed-changed', [`field-packed-changed safe ${file('options-field-packed-changed')}:14:3 `]],
    // field_presence = IMPLICIT: the editions spelling of a proto3 field without `optional`.
    ['options-field-presence-changed', [`field-cardinality-changed breaking ${file('options-field-presence-changed')}:16:3 FILE,PACKAGE`]],
    ['options-utf8-validation-changed', [`field-utf8-validation-changed breaking ${file('options-utf8-validation-changed')}:13:3 ${ALL}`]],
    ['options-enum-closed', [`enum-type-changed breaking ${file('options-enum-closed')}:7:1 FILE,PACKAGE`]],
    ['options-field-default-changed', [`field-default-changed breaking ${file('options-field-default-changed')}:16:3 ${ALL}`]],
    // jstype: the bytes stay, the generated int64 property turns from bigint into string.
    ['options-field-jstype-changed', [`field-jstype-changed breaking ${file('options-field-jstype-changed')}:35:3 FILE,PACKAGE`]],
    ['options-http-rule-changed', [`http-rule-changed breaking ${file('options-http-rule-changed')}:29:3 `]],
    ['options-http-route-added', [`http-route-added safe ${file('options-http-route-added')}:29:3 `]],
    // §9.4: breaking changes in a new package version are allowed.
    [
      'package-v2',
      [
        `field-removed breaking versioned ${file('base')}:16:3 ${ALL}`,
        'package-changed breaking versioned package-v2/acme/tasks/v2/tasks.proto:3:1 FILE,PACKAGE',
      ],
    ],
  ];
  for (const [name, expected] of cases) {
    it(name, async () => {
      const changes = await changesOf('proto', name.startsWith('options-') ? 'options-base' : 'base', name);
      expect(changes.map((c) => `${summary(c)} ${(c.categories ?? []).join(',')}`).sort()).toEqual([...expected].sort());
    });
  }
});

describe("codegen diff: GraphQL, graphql-js's change types located, plus safe additions", () => {
  const cases: [string, string[]][] = [
    ['field-removed', ['field-removed breaking base.graphql:22:3']],
    ['field-type-changed', ['field-changed-kind breaking field-type-changed.graphql:21:3']],
    ['arg-made-non-null', ['arg-made-non-null breaking arg-made-non-null.graphql:2:9']],
    ['required-arg-added', ['required-arg-added breaking required-arg-added.graphql:3:17']],
    ['optional-arg-added', ['optional-arg-added dangerous optional-arg-added.graphql:3:17']],
    ['enum-value-removed', ['value-removed-from-enum breaking base.graphql:12:3']],
    ['enum-value-added', ['value-added-to-enum dangerous enum-value-added.graphql:13:3']],
    ['required-input-field-added', ['required-input-field-added breaking required-input-field-added.graphql:36:3']],
    ['type-removed-from-union', ['type-removed-from-union breaking base.graphql:31:1']],
    [
      'type-added-to-union',
      ['type-added-to-union dangerous type-added-to-union.graphql:35:1', 'type-added safe type-added-to-union.graphql:31:1'],
    ],
    ['interface-removed', ['implemented-interface-removed breaking base.graphql:26:1']],
    ['type-removed', ['type-removed breaking base.graphql:31:1']],
    ['field-deprecated', ['field-deprecated safe field-deprecated.graphql:22:3']],
    ['safe-additions', ['field-added safe safe-additions.graphql:23:3', 'field-added safe safe-additions.graphql:30:3']],
  ];
  for (const [name, expected] of cases) {
    it(name, async () => {
      const changes = await changesOf('graphql', 'base.graphql', `${name}.graphql`);
      expect(changes.map(summary).sort()).toEqual([...expected].sort());
    });
  }
});

describe('codegen diff: AsyncAPI (SSE events by their event name, WebSocket messages by discriminator)', () => {
  const cases: [string, string[], string?][] = [
    ['event-renamed', ['event-renamed breaking event-renamed.yaml:27:7']],
    ['event-removed', ['message-removed breaking base.yaml:27:7']],
    ['event-added', ['message-added dangerous event-added.yaml:36:7']],
    ['payload-property-removed', ['response-property-removed breaking base.yaml:22:13']],
    ['payload-enum-value-added', ['response-enum-value-added dangerous payload-enum-value-added.yaml:26:15']],
    ['channel-address-changed', ['channel-address-changed breaking channel-address-changed.yaml:10:3']],
    // WebSocket: messages by their discriminator value; what clients send compared as requests.
    ['ws-message-renamed', ['message-renamed breaking ws-message-renamed.yaml:25:7'], 'ws-base.yaml'],
    ['ws-client-text-narrowed', ['request-max-length-narrowed breaking ws-client-text-narrowed.yaml:24:15'], 'ws-base.yaml'],
    ['ws-max-message-size-narrowed', ['ws-max-message-size-narrowed breaking ws-max-message-size-narrowed.yaml:10:3'], 'ws-base.yaml'],
    ['ws-message-direction-changed', ['message-direction-changed breaking ws-message-direction-changed.yaml:15:7'], 'ws-base.yaml'],
    // Replies matched by the tags on the wire: a request left unanswered, a reply's payload narrowed, a reply added.
    ['ws-reply-removed', ['reply-removed breaking ws-reply-removed.yaml:35:3'], 'ws-reply-base.yaml'],
    ['ws-reply-payload-narrowed', ['response-property-removed breaking ws-reply-base.yaml:32:13'], 'ws-reply-base.yaml'],
    ['ws-reply-base', ['reply-added safe ws-reply-base.yaml:35:3'], 'ws-base.yaml'],
    // SSE settings: retry is a hint; a new end marker is data to old clients.
    ['sse-retry-changed', ['sse-retry-changed safe sse-retry-changed.yaml:10:3']],
    ['sse-done-changed', ['sse-done-changed breaking sse-done-changed.yaml:10:3']],
    ['sse-resume-removed', ['sse-resume-removed dangerous sse-resume-removed.yaml:10:3']],
    ['sse-resume-added', ['sse-resume-added safe sse-resume-added.yaml:10:3'], 'sse-resume-removed.yaml'],
    // A new version segment in the address makes the rename allowed.
    [
      'versioned-channel',
      [
        'channel-address-changed breaking versioned versioned-channel.yaml:10:3',
        'event-renamed breaking versioned versioned-channel.yaml:27:7',
      ],
    ],
  ];
  for (const [name, expected, from = 'base.yaml'] of cases) {
    it(name, async () => {
      const changes = await changesOf('asyncapi', from, `${name}.yaml`);
      expect(changes.map(summary).sort()).toEqual([...expected].sort());
    });
  }
});

describe('codegen diff through the CLI', () => {
  const openapi = join(FIXTURES, 'openapi');

  it('human format: located lines, the consequences, a summary and the §9 hint; exit 1 on a breaking change', () => {
    const result = codegen(['diff', 'base.yaml', 'response-property-removed.yaml'], openapi);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('base.yaml:70:9: error: breaking: schema Task: property "note" removed [response-property-removed]');
    expect(result.stdout).toContain('  wire: old clients read it and get undefined');
    expect(result.stdout).toContain('codegen diff (openapi): 1 breaking (1 without a new version), 0 dangerous, 0 safe');
    expect(result.stdout).toContain('§9.1');
  });

  it('--format json; exit 0 when only dangerous and safe changes, or breaking ones under a new version', () => {
    const dangerous = codegen(['diff', 'base.yaml', 'response-enum-value-added.yaml', '--format', 'json'], openapi);
    expect(dangerous.code).toBe(0);
    const parsed = JSON.parse(dangerous.stdout) as { style: string; summary: Record<string, number>; changes: Change[] };
    expect(parsed.style).toBe('openapi');
    expect(parsed.summary).toEqual({ breaking: 0, errors: 0, dangerous: 1, safe: 0 });
    expect(codegen(['diff', 'base.yaml', 'versioned-path.yaml'], openapi).code).toBe(0);
  });

  it('--format sarif validates against the SARIF 2.1.0 JSON schema', () => {
    const result = codegen(['diff', 'base.yaml', 'response-removed.yaml', '--format', 'sarif'], openapi);
    expect(result.code).toBe(1);
    const log = JSON.parse(result.stdout);
    const schema = JSON.parse(
      readFileSync(join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8'),
    );
    // A CommonJS module: its default export is the class under NodeNext resolution too (`.default` in TS's view).
    const Ajv = AjvModule.default;
    const validate = new Ajv({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false }).compile(schema);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const broken = structuredClone(log);
    delete broken.runs[0].results[0].message;
    expect(validate(broken)).toBe(false);
    expect(log.runs[0].results.map((r: { ruleId: string; level: string }) => `${r.ruleId} ${r.level}`)).toEqual([
      'diff/openapi/response-removed error',
      'diff/openapi/response-added warning',
    ]);
    expect(log.runs[0].results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'base.yaml' },
      region: { startLine: 37, startColumn: 9 },
    });
  });

  it('folders of .proto files; usage errors exit 2', () => {
    expect(codegen(['diff', 'base', 'field-removed'], join(FIXTURES, 'proto')).code).toBe(1);
    expect(codegen(['diff', 'base', 'field-added'], join(FIXTURES, 'proto')).code).toBe(0);
    const mixed = codegen(['diff', join(openapi, 'base.yaml'), 'base'], join(FIXTURES, 'proto'));
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('different styles (openapi and proto)');
    expect(codegen(['diff', 'base.yaml', 'missing.yaml'], openapi).code).toBe(2);
    expect(codegen(['diff', 'base.yaml', 'base.yaml', '--format', 'xml'], openapi).code).toBe(2);
  });

  it("git:REF: the config's inputs at a revision against the working tree, located as git:REF:path", () => {
    const repo = tempDir('codegen-diff-git-');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    git('init', '-q');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    mkdirSync(join(repo, 'api'));
    cpSync(join(openapi, 'base.yaml'), join(repo, 'api', 'tasks.yaml'));
    writeFileSync(join(repo, 'codegen.config.yaml'), 'apis:\n  - name: rest\n    input: api/tasks.yaml\n    output: out/rest\n');
    git('add', '.');
    git('commit', '-q', '-m', 'v1');
    cpSync(join(openapi, 'response-property-removed.yaml'), join(repo, 'api', 'tasks.yaml'));

    const result = codegen(['diff', 'git:HEAD', '--format', 'json'], repo);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const [rest] = JSON.parse(result.stdout) as { api: string; changes: Change[] }[];
    expect(rest?.api).toBe('rest');
    expect(rest?.changes.map(summary)).toEqual(['response-property-removed breaking git:HEAD:api/tasks.yaml:70:9']);

    git('commit', '-q', '-am', 'v2');
    expect(codegen(['diff', 'git:HEAD~1', 'git:HEAD'], repo).stdout).toContain('git:HEAD~1:api/tasks.yaml:70:9: error: breaking');
    expect(codegen(['diff', 'git:HEAD'], repo).code).toBe(0);
    // An API added since the revision: reported, nothing to compare it with.
    cpSync(join(FIXTURES, 'graphql', 'base.graphql'), join(repo, 'api', 'schema.graphql'));
    writeFileSync(
      join(repo, 'codegen.config.yaml'),
      'apis:\n  - name: rest\n    input: api/tasks.yaml\n    output: out/rest\n  - name: gql\n    input: api/schema.graphql\n    output: out/gql\n',
    );
    const added = codegen(['diff', 'git:HEAD'], repo);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('safe: gql: api/schema.graphql does not exist at git:HEAD [api-added]');
    const bad = codegen(['diff', 'git:--output=x'], repo);
    expect(bad.code).toBe(2);
    expect(readFileSync(join(repo, 'api', 'tasks.yaml'), 'utf8')).toContain('openapi: 3.1.0');
  });
});
