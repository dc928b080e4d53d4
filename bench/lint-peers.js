#!/usr/bin/env node
/**
 * `codegen lint` beside Spectral (`spectral:oas`) and Redocly (`recommended`) on every OpenAPI/Swagger
 * document of the shared corpus (issue 16's acceptance). Each tool runs through its own CLI with JSON
 * output, one process per document, the network guard preloaded. Every finding is mapped to
 * (document, anchor, topic): the anchor is the operation, component or top-level key its JSON
 * pointer lies in (codegen reports line:col only, so its pointer is read from the document's YAML
 * tree at that position), the topic a class of rules (below). Printed: per tool the findings and
 * time; per topic the sites each tool finds and those only one finds; a sample of the sites only
 * one tool finds. Nothing is asserted.
 *
 *   npx tsc -p tsconfig.build.json && node bench/lint-peers.js [corpus-dir] [--findings <file.json>] [--sample <n>]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { childEnv, tail, timed } from './lib/proc.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const findingsOut = option('--findings');
const samplePerTool = Number(option('--sample') ?? 24);
const corpus = resolve(args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? '/work/shared/corpus');

const versionOf = (folder) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version;
const version = (pkg) => versionOf(join(repo, 'node_modules', pkg));

/** The same OpenAPI/Swagger documents bench/lint-corpus.js lints: every .yaml/.yml/.json under openapi/. */
function documents(folder = join(corpus, 'openapi')) {
  return readdirSync(folder)
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return documents(path);
      return /\.(ya?ml|json)$/.test(name) ? [path] : [];
    })
    .sort();
}

// ---------------------------------------------------------------------------------------------
// Topics: what a rule is about, so rules of three tools with different ids can be compared.

const TOPICS = [
  ['operationId', /^operation-operationId/],
  [
    'descriptions, summaries, info',
    /^(info-|license-|contact-|operation-description$|operation-summary$|tag-description$|(oas[23]-)?parameter-description$)/,
  ],
  ['tags', /^(operation-tags?|operation-tag-defined|openapi-tags|operation-singular-tag)/],
  [
    'examples',
    /(valid-(media|schema)-example|examples-value-or-externalValue|invalid-(media-type|schema|parameter)-examples|example-value-and-externalValue)$/,
  ],
  ['security', /^(oas[23]-operation-security-defined|security-defined|rest\/no-secrets-in-query)$/],
  [
    'status codes',
    /^(operation-success-response|operation-[24]xx-response|rest\/(create-returns-201|errors-not-200|rate-limit-429|delete-without-body))$/,
  ],
  ['error format', /^(rest\/problem-details|operation-4xx-problem-details-rfc7807)$/],
  ['pagination, sort/filter', /^rest\/(pagination-style|query-conventions)$/],
  ['caching', /^rest\/conditional-get$/],
  ['idempotency', /^rest\/idempotency-key$/],
  [
    'paths, parameters, naming',
    /^(path-|paths-|no-path-trailing-slash|no-(identical|ambiguous)-paths|operation-parameters|rest\/(no-verbs-in-paths|max-nesting|no-post-for-read)$)/,
  ],
  ['unused components', /^(oas3-unused-component|oas2-unused-definition|no-unused-components)$/],
  [
    'servers',
    /^(oas3-api-servers|oas2-api-(host|schemes)|oas2-host-|oas3-server-|no-server-|no-empty-servers|no-undefined-server-variable)/,
  ],
  ['markdown safety', /^no-(eval|script-tags)-in-markdown$/],
  [
    'schema validity',
    /^(oas[23]-schema|struct|spec|typed-enum|no-enum-type-mismatch|duplicated-entry-in-enum|array-items|no-unresolved-refs|no-\$ref-siblings|oas2-(discriminator|anyOf|oneOf|operation-formData-consume-check)|no-schema-type-mismatch|no-required-schema-properties-undefined|spec-components-invalid-map-name|oas3-callbacks-in-callbacks|oas3_[12]-|load)/,
  ],
];
const topicOf = (ruleId) => TOPICS.find(([, pattern]) => pattern.test(ruleId))?.[0] ?? `other (${ruleId})`;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The part of a pointer findings are compared at: an operation, a component, or a top-level key. */
function anchorOf(segments) {
  const [top, second, third] = segments;
  if ((top === 'paths' || top === 'webhooks') && second !== undefined)
    return METHODS.has(third) ? `${top} ${second} ${third}` : `${top} ${second}`;
  if (top === 'components' && third !== undefined) return `components/${second}/${third}`;
  if (['definitions', 'parameters', 'responses', 'securityDefinitions'].includes(top) && second !== undefined) return `${top}/${second}`;
  // A missing `servers` is reported at the root by Spectral and at `openapi` by Redocly.
  return top === undefined || ['openapi', 'swagger', 'servers'].includes(top) ? '(document)' : top;
}

// ---------------------------------------------------------------------------------------------
// Line:col to JSON pointer, for codegen's findings.

const trees = new Map();
function tree(file) {
  if (!trees.has(file)) {
    const lineCounter = new LineCounter();
    const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter, uniqueKeys: false });
    trees.set(file, { doc, lineCounter });
  }
  return trees.get(file);
}

/** The pointer segments of the innermost key or value at (line, column), both 1-based. */
function segmentsAt(file, line, column) {
  const { doc, lineCounter } = tree(file);
  const offset = (lineCounter.lineStarts[line - 1] ?? 0) + column - 1;
  const inside = (node) => node?.range && offset >= node.range[0] && offset < node.range[2];
  const segments = [];
  let node = doc.contents;
  for (;;) {
    if (isMap(node)) {
      const pair = node.items.find((item) => inside(item.key) || inside(item.value));
      if (!pair) break;
      segments.push(String(isScalar(pair.key) ? pair.key.value : pair.key));
      if (inside(pair.key)) break;
      node = pair.value;
    } else if (isSeq(node)) {
      const index = node.items.findIndex(inside);
      if (index < 0) break;
      segments.push(String(index));
      node = node.items[index];
    } else break;
  }
  return segments;
}

const decodePointer = (pointer) =>
  pointer
    .replace(/^#?\/?/, '')
    .split('/')
    .filter((segment, i, all) => segment !== '' || all.length > 1)
    .map((segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~'));

// ---------------------------------------------------------------------------------------------
// The three tools: each returns its findings as { ruleId, severity, line, segments, message }.

const scratch = mkdtempSync(join(tmpdir(), 'lint-peers-'));
const spectralRuleset = join(scratch, '.spectral.yaml');
writeFileSync(spectralRuleset, 'extends: ["spectral:oas"]\n');

const TOOLS = [
  {
    id: 'codegen',
    label: `codegen lint ${versionOf(repo)}`,
    argv: (file) => [join(repo, 'bin/codegen.js'), 'lint', file, '--format', 'json'],
    read(stdout, file) {
      return JSON.parse(stdout).apis.flatMap((api) =>
        api.findings.map((finding) => ({
          ruleId: finding.ruleId,
          severity: finding.severity,
          line: finding.line,
          segments: resolve(finding.file) === file ? segmentsAt(file, finding.line, finding.column) : [],
          message: finding.message,
        })),
      );
    },
  },
  {
    id: 'spectral',
    label: `Spectral ${version('@stoplight/spectral-cli')} (spectral:oas)`,
    argv: (file) => [
      join(repo, 'node_modules/@stoplight/spectral-cli/dist/index.js'),
      'lint',
      file,
      '--ruleset',
      spectralRuleset,
      '--format',
      'json',
      '--quiet',
    ],
    read(stdout) {
      const SEVERITIES = ['error', 'warning', 'info', 'hint'];
      return JSON.parse(stdout).map((result) => ({
        ruleId: result.code,
        severity: SEVERITIES[result.severity],
        line: result.range.start.line + 1,
        segments: result.path.map(String),
        message: result.message,
      }));
    },
  },
  {
    id: 'redocly',
    label: `Redocly ${version('@redocly/cli')} (recommended)`,
    argv: (file) => [
      join(repo, 'node_modules/@redocly/cli/bin/cli.js'),
      'lint',
      file,
      '--extends',
      'recommended',
      '--format',
      'json',
      '--max-problems',
      '1000000',
      '--lint-config',
      'off',
    ],
    read(stdout) {
      return JSON.parse(stdout).problems.map((problem) => {
        const at = problem.location[0] ?? {};
        return {
          ruleId: problem.ruleId,
          severity: problem.severity,
          line: at.start?.line,
          segments: decodePointer(at.pointer ?? ''),
          message: problem.message,
        };
      });
    },
  },
];

// Redocly's telemetry and update check are off (the guard would block them anyway, but they would
// cost a failed connection per run); no config file is found because each tool runs in `scratch`.
const env = childEnv({ netguard: true, extra: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });

/** Runs one tool on one document; lint tools exit 1 on error findings, so only unreadable JSON fails. */
function run(tool, file) {
  const result = timed(process.execPath, tool.argv(file), { cwd: scratch, env, usageFile: join(scratch, 'usage') });
  try {
    return { ms: result.ms, cpuMs: result.cpuMs, netAttempts: result.netAttempts, findings: tool.read(result.stdout, file) };
  } catch (error) {
    return {
      ms: result.ms,
      cpuMs: result.cpuMs,
      netAttempts: result.netAttempts,
      failed: `${result.error ?? error.message}\n${tail(result.stderr || result.stdout)}`,
    };
  }
}

// ---------------------------------------------------------------------------------------------

const pad = (text, width) => String(text).padEnd(width);
const short = (text, length = 150) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);
const seconds = (ms) => (ms / 1000).toFixed(2);
const load = (values) => values.map((n) => n.toFixed(2)).join(' / ');

/** The commit, and how many files of the lint's sources differ from it (other work in progress shows here). */
function revision() {
  const git = (...argv) => spawnSync('git', argv, { cwd: repo, encoding: 'utf8' }).stdout?.trim() ?? '';
  const dirty = git('status', '--porcelain', '--', 'bin', 'generators').split('\n').filter(Boolean).length;
  return `${git('rev-parse', '--short', 'HEAD') || 'unknown commit'}${dirty ? ` + ${dirty} uncommitted file(s) under bin/ generators/` : ''}`;
}

try {
  const files = documents();
  const started = new Date();
  const loadAtStart = loadavg();
  const all = [];
  const perTool = new Map(TOOLS.map((tool) => [tool.id, { ms: 0, cpuMs: 0, failed: [], net: [], perDocument: new Map() }]));
  for (const file of files) {
    const document = relative(corpus, file);
    for (const tool of TOOLS) {
      const result = run(tool, file);
      const totals = perTool.get(tool.id);
      totals.ms += result.ms;
      totals.cpuMs += result.cpuMs ?? 0;
      totals.net.push(...result.netAttempts);
      if (result.failed) {
        totals.failed.push(`${document}: ${result.failed}`);
        continue;
      }
      totals.perDocument.set(document, result.findings.length);
      for (const finding of result.findings) {
        const topic = topicOf(finding.ruleId);
        const anchor = anchorOf(finding.segments);
        all.push({
          tool: tool.id,
          document,
          topic,
          anchor,
          site: `${document}\t${anchor}\t${topic}`,
          ...finding,
          pointer: `/${finding.segments.join('/')}`,
        });
      }
    }
  }

  const sitesOf = (toolId, topic) =>
    new Set(all.filter((f) => f.tool === toolId && (topic === undefined || f.topic === topic)).map((f) => f.site));
  const toolsAt = new Map();
  for (const finding of all) toolsAt.set(finding.site, (toolsAt.get(finding.site) ?? new Set()).add(finding.tool));

  console.log(`# codegen lint, Spectral and Redocly over the OpenAPI documents of ${corpus}\n`);
  console.log(`${started.toISOString()}, ${files.length} documents, one process per tool and document, Node ${process.version}`);
  console.log(`load average at start: ${load(loadAtStart)}`);
  console.log(`codegen at ${revision()} (the CLI runs dist/: build first)\n`);

  console.log(
    '| tool | findings | errors | warnings | other | documents with findings | wall (sum) | CPU (sum) | failed |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const tool of TOOLS) {
    const mine = all.filter((f) => f.tool === tool.id);
    const totals = perTool.get(tool.id);
    const errors = mine.filter((f) => f.severity === 'error').length;
    const warnings = mine.filter((f) => f.severity === 'warning' || f.severity === 'warn').length;
    const withFindings = [...totals.perDocument.values()].filter((n) => n > 0).length;
    const cpu = totals.cpuMs ? `${seconds(totals.cpuMs)} s` : 'n/a';
    console.log(
      `| ${tool.label} | ${mine.length} | ${errors} | ${warnings} | ${mine.length - errors - warnings} | ${withFindings} | ${seconds(totals.ms)} s | ${cpu} | ${totals.failed.length} |`,
    );
  }
  for (const tool of TOOLS) for (const failure of perTool.get(tool.id).failed) console.log(`\n${tool.id} failed on ${failure}`);
  const net = TOOLS.flatMap((tool) => perTool.get(tool.id).net.map((line) => `${tool.id}: ${line}`));
  console.log(
    net.length
      ? `\nNetwork attempts (blocked):\n${[...new Set(net)].join('\n')}`
      : '\nNetwork: no tool attempted a connection (bench/lib/netguard.js preloaded).',
  );

  console.log('\n## Findings per document\n');
  console.log(`| document | ${TOOLS.map((t) => t.id).join(' | ')} |\n|---|${TOOLS.map(() => '---:').join('|')}|`);
  for (const file of files) {
    const document = relative(corpus, file);
    console.log(`| ${document} | ${TOOLS.map((t) => perTool.get(t.id).perDocument.get(document) ?? 'failed').join(' | ')} |`);
  }

  console.log('\n## Per topic: findings (sites) per tool, and sites only that tool reports\n');
  console.log('A site is (document, anchor, topic); the anchor is the operation, component or top-level key the finding points into.\n');
  const topics = [...new Set([...TOPICS.map(([name]) => name), ...all.map((f) => f.topic)])].filter((topic) =>
    all.some((f) => f.topic === topic),
  );
  console.log(
    `| topic | ${TOOLS.map((t) => `${t.id} findings (sites)`).join(' | ')} | ${TOOLS.map((t) => `only ${t.id}`).join(' | ')} | sites found by 2+ tools |`,
  );
  console.log(`|---|${TOOLS.map(() => '---:').join('|')}|${TOOLS.map(() => '---:').join('|')}|---:|`);
  const onlyCell = (toolId, topic) => [...sitesOf(toolId, topic)].filter((site) => toolsAt.get(site).size === 1).length;
  for (const topic of [...topics, undefined]) {
    const label = topic ?? '**all**';
    const counts = TOOLS.map(
      (t) => `${all.filter((f) => f.tool === t.id && (topic === undefined || f.topic === topic)).length} (${sitesOf(t.id, topic).size})`,
    );
    const shared = [...toolsAt].filter(([site, tools]) => tools.size > 1 && (topic === undefined || site.endsWith(`\t${topic}`))).length;
    console.log(`| ${label} | ${counts.join(' | ')} | ${TOOLS.map((t) => onlyCell(t.id, topic)).join(' | ')} | ${shared} |`);
  }

  console.log('\n## Rules per tool (findings, topic)\n');
  for (const tool of TOOLS) {
    const counts = new Map();
    for (const f of all.filter((f) => f.tool === tool.id)) counts.set(f.ruleId, (counts.get(f.ruleId) ?? 0) + 1);
    const rules = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([rule, n]) => `${rule} ${n} (${topicOf(rule)})`);
    console.log(`- ${tool.id}: ${rules.join('; ') || 'none'}`);
  }

  console.log(`\n## Sample: sites only one tool reports (first per rule, up to ${samplePerTool} per tool)\n`);
  for (const tool of TOOLS) {
    const seenRules = new Set();
    const sample = all
      .filter((f) => f.tool === tool.id && toolsAt.get(f.site).size === 1 && !seenRules.has(f.ruleId) && seenRules.add(f.ruleId))
      .slice(0, samplePerTool);
    console.log(`${tool.id} only:`);
    for (const f of sample) console.log(`  ${pad(`${f.document}:${f.line}`, 44)} ${pad(f.ruleId, 36)} ${f.anchor} — ${short(f.message)}`);
  }

  const elapsed = ((Date.now() - started.getTime()) / 1000).toFixed(0);
  console.log(`\nload average at end: ${load(loadavg())}; ${elapsed} s in all`);
  if (findingsOut)
    writeFileSync(
      findingsOut,
      JSON.stringify(
        all.map(({ segments, site, ...rest }) => ({ ...rest, onlyThisTool: toolsAt.get(site).size === 1 })),
        null,
        1,
      ),
    );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
