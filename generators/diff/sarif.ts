/**
 * `codegen diff --format sarif`: SARIF 2.1.0, as `codegen lint` writes it (generators/lint/format.ts),
 * so GitHub code scanning shows breaking changes inline. Each change kind is a rule
 * (`diff/<style>/<kind>`); breaking changes without a version switch are errors, other breaking and
 * dangerous ones warnings, safe ones notes.
 */
import { codegenVersion } from '../core/pipeline/version.js';
import { isError, sortChanges, type Change, type DiffResult } from './changes.js';

function level(change: Change): 'error' | 'warning' | 'note' {
  if (isError(change)) return 'error';
  return change.class === 'safe' ? 'note' : 'warning';
}

export function toSarif(results: { api?: string; result: DiffResult }[]): Record<string, unknown> {
  const entries = results.flatMap(({ api, result }) =>
    sortChanges(result.changes).map((change) => ({ api, change, ruleId: `diff/${result.style}/${change.kind}` })),
  );
  const ruleIds = [...new Set(entries.map((entry) => entry.ruleId))].sort();
  const ruleIndex = new Map(ruleIds.map((id, i) => [id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'codegen diff',
            semanticVersion: codegenVersion(),
            informationUri: 'https://www.npmjs.com/package/codegen-ts',
            rules: ruleIds.map((id) => ({ id, shortDescription: { text: id.split('/').slice(2).join('/').replace(/-/g, ' ') } })),
          },
        },
        results: entries.map(({ api, change, ruleId }) => ({
          ruleId,
          ruleIndex: ruleIndex.get(ruleId) ?? -1,
          level: level(change),
          message: {
            text: `${change.message} (${change.class}${change.versioned ? ', under a new version' : ''}). Wire: ${change.wire}. Generated code: ${change.code}.`,
          },
          ...(change.location
            ? {
                locations: [
                  {
                    physicalLocation: {
                      artifactLocation: { uri: encodeURI(change.location.file) },
                      region: { startLine: change.location.line, startColumn: change.location.column },
                    },
                  },
                ],
              }
            : {}),
          properties: {
            class: change.class,
            versioned: change.versioned === true,
            ...(api === undefined ? {} : { api }),
            ...(change.categories ? { bufCategories: change.categories } : {}),
          },
        })),
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
}
