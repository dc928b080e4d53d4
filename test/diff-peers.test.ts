/**
 * `codegen diff` against the tools it answers to, run on the same pairs (test/fixtures/diff/):
 * `buf breaking` (npm @bufbuild/buf, its binary inside the platform package) under each of its
 * rule categories FILE, PACKAGE, WIRE_JSON and WIRE, and graphql-inspector's `diff`. For every
 * finding of theirs, codegen reports a change of the same kind, at least as severe, in the same
 * category (buf) or on the same element (graphql-inspector).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CriticalityLevel, diff as inspectorDiff } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { Change } from '../generators/diff/changes.js';
import { diffSides, sideOf } from '../generators/diff/index.js';
import { ROOT } from './support/cli.js';
import { tempDir } from './support/tmp.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'diff');
const require = createRequire(import.meta.url);

/** The platform binary when there is one for this machine (no Node shim start-up), else the shim. */
function bufBinary(): string {
  try {
    return require.resolve(`@bufbuild/buf-${process.platform}-${process.arch}/bin/buf`);
  } catch {
    return join(ROOT, 'node_modules', '.bin', 'buf');
  }
}

/** buf's rules → the codegen change kinds that report the same thing. */
const BUF_RULES: Record<string, string[]> = {
  FIELD_NO_DELETE: ['field-removed', 'field-removed-reserved', 'field-number-changed'],
  FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED: ['field-removed', 'field-number-changed'],
  FIELD_NO_DELETE_UNLESS_NAME_RESERVED: ['field-removed', 'field-removed-reserved', 'field-number-changed'],
  FIELD_SAME_NAME: ['field-renamed', 'field-number-reused'],
  FIELD_SAME_JSON_NAME: ['field-renamed', 'field-number-reused', 'field-json-name-changed'],
  FIELD_SAME_TYPE: ['field-type-changed', 'extension-type-changed'],
  FIELD_WIRE_COMPATIBLE_TYPE: ['field-type-changed', 'extension-type-changed'],
  FIELD_WIRE_JSON_COMPATIBLE_TYPE: ['field-type-changed', 'extension-type-changed'],
  FIELD_SAME_CARDINALITY: ['field-cardinality-changed', 'field-oneof-changed'],
  FIELD_WIRE_COMPATIBLE_CARDINALITY: ['field-cardinality-changed'],
  FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY: ['field-cardinality-changed'],
  FIELD_SAME_ONEOF: ['field-oneof-changed'],
  FIELD_SAME_UTF8_VALIDATION: ['field-utf8-validation-changed'],
  FIELD_SAME_JAVA_UTF8_VALIDATION: ['field-utf8-validation-changed'],
  EXTENSION_NO_DELETE: ['extension-removed'],
  PACKAGE_EXTENSION_NO_DELETE: ['extension-removed'],
  ENUM_SAME_TYPE: ['enum-type-changed'],
  FIELD_SAME_DEFAULT: ['field-default-changed'],
  FIELD_SAME_JSTYPE: ['field-jstype-changed'],
  ENUM_VALUE_NO_DELETE: ['enum-value-removed', 'enum-value-removed-reserved'],
  ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED: ['enum-value-removed'],
  ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED: ['enum-value-removed', 'enum-value-removed-reserved'],
  ENUM_VALUE_SAME_NAME: ['enum-value-renamed'],
  MESSAGE_NO_DELETE: ['message-removed'],
  PACKAGE_MESSAGE_NO_DELETE: ['message-removed'],
  RESERVED_MESSAGE_NO_DELETE: ['reserved-range-removed', 'reserved-name-removed'],
  RPC_NO_DELETE: ['rpc-removed'],
  RPC_SAME_REQUEST_TYPE: ['rpc-request-type-changed'],
  RPC_SAME_RESPONSE_TYPE: ['rpc-response-type-changed'],
  RPC_SAME_CLIENT_STREAMING: ['rpc-streaming-changed'],
  RPC_SAME_SERVER_STREAMING: ['rpc-streaming-changed'],
  SERVICE_NO_DELETE: ['service-removed'],
  PACKAGE_SERVICE_NO_DELETE: ['service-removed'],
  FILE_NO_DELETE: ['package-changed'],
  PACKAGE_NO_DELETE: ['package-changed'],
};

/** Breaking changes buf breaking does not report: an extension renumbered (buf matches extensions by name), REST routes. */
const BEYOND_BUF: Record<string, string[]> = {
  'options-extension-number-changed': ['extension-number-changed'],
  'options-http-rule-changed': ['http-rule-changed'],
};

interface BufFinding {
  type: string;
  path?: string;
  start_line?: number;
}

function bufBreaking(oldFolder: string, newFolder: string, category: string): BufFinding[] {
  const work = tempDir('codegen-buf-');
  for (const [name, from] of [
    ['old', oldFolder],
    ['new', newFolder],
  ] as const) {
    cpSync(from, join(work, name), { recursive: true });
    writeFileSync(join(work, name, 'buf.yaml'), `version: v2\nbreaking:\n  use: [${category}]\n`);
  }
  const run = spawnSync(bufBinary(), ['breaking', 'new', '--against', 'old', '--error-format', 'json'], { cwd: work, encoding: 'utf8' });
  // 0: nothing breaking; 100: findings. Anything else is buf failing to read the input.
  expect([0, 100], run.stderr).toContain(run.status);
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as BufFinding);
}

describe('codegen diff reports at least what buf breaking reports (FILE, PACKAGE, WIRE_JSON, WIRE)', () => {
  const folder = join(FIXTURES, 'proto');
  // `options-*` cases (editions features, extensions, google.api.http) change `options-base`; the others `base`.
  const baseOf = (name: string) => (name.startsWith('options-') ? 'options-base' : 'base');
  const cases = readdirSync(folder)
    .filter((name) => name !== 'base' && name !== 'options-base')
    .sort();
  for (const name of cases) {
    it(name, async () => {
      const base = join(folder, baseOf(name));
      const changes = (await diffSides({ ...sideOf(base), displayRoot: folder }, { ...sideOf(join(folder, name)), displayRoot: folder }))
        .changes;
      let found = 0;
      for (const category of ['FILE', 'PACKAGE', 'WIRE_JSON', 'WIRE']) {
        for (const finding of bufBreaking(base, join(folder, name), category)) {
          found++;
          const kinds = BUF_RULES[finding.type];
          expect(kinds, `buf rule ${finding.type} has no codegen counterpart listed`).toBeDefined();
          const match = changes.find((c) => kinds!.includes(c.kind) && c.class === 'breaking' && (c.categories ?? []).includes(category));
          expect(
            match,
            `${category} ${finding.type} at ${finding.path}:${finding.start_line}: codegen has ${changes.map((c) => `${c.kind} ${c.class} ${(c.categories ?? []).join(',')}`).join('; ')}`,
          ).toBeDefined();
        }
      }
      // The additive cases are the ones buf finds nothing in; codegen calls them safe or dangerous,
      // except where it sees a break buf does not check.
      if (found === 0) expect(changes.filter((c) => c.class === 'breaking').map((c) => c.kind)).toEqual(BEYOND_BUF[name] ?? []);
    });
  }
});

describe('codegen diff reports at least what graphql-inspector reports', () => {
  const folder = join(FIXTURES, 'graphql');
  const base = readFileSync(join(folder, 'base.graphql'), 'utf8');
  const cases = readdirSync(folder)
    .filter((name) => name !== 'base.graphql')
    .sort();
  const rank = { breaking: 0, dangerous: 1, safe: 2 } as const;
  for (const name of cases) {
    it(name, async () => {
      const changes: Change[] = (
        await diffSides(
          { files: [join(folder, 'base.graphql')], displayRoot: folder },
          { files: [join(folder, name)], displayRoot: folder },
        )
      ).changes;
      const theirs = await inspectorDiff(buildSchema(base), buildSchema(readFileSync(join(folder, name), 'utf8')));
      for (const change of theirs) {
        const level =
          change.criticality.level === CriticalityLevel.Breaking
            ? 'breaking'
            : change.criticality.level === CriticalityLevel.Dangerous
              ? 'dangerous'
              : 'safe';
        // Directive usages (`@deprecated` added) are reported by codegen as the deprecation itself.
        const parts = (change.path ?? '').split('.');
        const at = parts.findIndex((part) => part.startsWith('@'));
        const element = at < 0 ? parts : parts.slice(0, at);
        const last = element[element.length - 1] ?? '';
        // A field of a new type is in codegen's "type added"; breaking and dangerous ones must name the element itself.
        const named = (c: Change) => (level === 'safe' ? element.some((part) => c.message.includes(part)) : c.message.includes(last));
        const match = changes.find((c) => rank[c.class] <= rank[level] && named(c));
        expect(match, `${change.type} (${level}) at ${change.path}: ${change.message}`).toBeDefined();
      }
    });
  }
});
