/**
 * Writes `runtime/manifest.json` (read by generators/core/pipeline/runtime-modules.ts): each runtime
 * module's exports and imports, read with the TypeScript compiler from the files themselves. It
 * lives beside the tests because only they run it (test/runtime-modules.test.ts compares it with the
 * committed manifest): generation reads the JSON and never loads the compiler (~200 ms a run).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { RuntimeExport, RuntimeManifest, RuntimeModule } from '../../generators/core/pipeline/runtime-modules.js';

/**
 * The manifest of the runtime modules in `folder` (every `*.ts` file), as the JSON text committed:
 * one line per export and per import list, so a change to a module is a readable diff.
 */
export function runtimeManifestText(folder: string): string {
  const modules = Object.entries(runtimeManifest(folder).modules).map(([name, module]) => {
    const exports = module.exports.map((exported) => `        ${JSON.stringify(exported)}`).join(',\n');
    const fields = [
      `"exports": [\n${exports}\n      ]`,
      `"imports": ${JSON.stringify(module.imports)}`,
      `"packages": ${JSON.stringify(module.packages)}`,
    ];
    return `    ${JSON.stringify(name)}: {\n${fields.map((field) => `      ${field}`).join(',\n')}\n    }`;
  });
  return `{\n  "modules": {\n${modules.join(',\n')}\n  }\n}\n`;
}

export function runtimeManifest(folder: string): RuntimeManifest {
  const files = readdirSync(folder)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .sort()
    .map((file) => join(folder, file));
  const options = ts.parseJsonConfigFileContent(
    ts.readConfigFile(join(folder, 'tsconfig.json'), ts.sys.readFile).config,
    ts.sys,
    folder,
  ).options;
  const program = ts.createProgram(files, options);
  const checker = program.getTypeChecker();
  const modules: Record<string, Omit<RuntimeModule, 'name'>> = {};
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    modules[moduleName(file)] = { exports: exportsOf(source, checker), ...importsOf(readFileSync(file, 'utf8')) };
  }
  return { modules };
}

function moduleName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1, -'.ts'.length);
}

/** Every export of `source`, its own and re-exported ones, sorted by name. */
function exportsOf(source: ts.SourceFile, checker: ts.TypeChecker): RuntimeExport[] {
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return [];
  return checker
    .getExportsOfModule(moduleSymbol)
    .map((symbol) => describeExport(symbol, source, checker))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function describeExport(symbol: ts.Symbol, source: ts.SourceFile, checker: ts.TypeChecker): RuntimeExport {
  const alias = (symbol.flags & ts.SymbolFlags.Alias) !== 0;
  const target = alias ? checker.getAliasedSymbol(symbol) : symbol;
  // `export type { X }` makes even a class a type-only export.
  const type = (alias && exportedAsType(symbol)) || (target.flags & ts.SymbolFlags.Value) === 0;
  const described: RuntimeExport = { name: symbol.name, type };
  const declaration = target.declarations?.[0];
  const declaredIn = declaration?.getSourceFile();
  if (declaredIn && declaredIn !== source)
    described.from =
      declaredIn.isDeclarationFile || !declaredIn.fileName.startsWith(dirOf(source.fileName))
        ? packageOf(symbol)
        : moduleName(declaredIn.fileName);
  const doc = firstParagraph(ts.displayPartsToString(target.getDocumentationComment(checker)));
  if (doc) described.doc = doc;
  // `@public`: part of the API a generated entry file re-exports (publicRuntimeExports). A re-export
  // of a package's names carries the tag on its `export { ... } from` statement.
  if (target.getJsDocTags(checker).some((tag) => tag.name === 'public') || (alias && reexportedAsPublic(symbol))) described.public = true;
  return described;
}

/** `/** @public *\/ export { X } from "..."`: the re-export statement is tagged. */
function reexportedAsPublic(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some(
    (declaration) =>
      ts.isExportSpecifier(declaration) && ts.getJSDocTags(declaration.parent.parent).some((tag) => tag.tagName.text === 'public'),
  );
}

/** `export type { X }`, `export { type X }` (from a module or not). */
function exportedAsType(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some(
    (declaration) => ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly),
  );
}

function dirOf(file: string): string {
  return file.slice(0, file.lastIndexOf('/') + 1);
}

/** The module specifier a re-export names (`@connectrpc/connect`), for exports of packages. */
function packageOf(symbol: ts.Symbol): string | undefined {
  for (const declaration of symbol.declarations ?? []) {
    let node: ts.Node = declaration;
    while (!ts.isExportDeclaration(node) && node.parent) node = node.parent;
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) return node.moduleSpecifier.text;
  }
  return undefined;
}

/** A JSDoc's first paragraph on one line. */
function firstParagraph(text: string): string {
  return (text.split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ').trim();
}

/** The runtime modules (`./x.js` → `x`) and packages (`node:http`, `graphql-ws/use/ws`) a module imports. */
function importsOf(text: string): Pick<RuntimeModule, 'imports' | 'packages'> {
  const imports = new Set<string>();
  const packages = new Set<string>();
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    if (fileName.startsWith('./')) imports.add(fileName.slice(2).replace(/\.js$/, ''));
    else packages.add(fileName);
  }
  return { imports: [...imports].sort(), packages: [...packages].sort() };
}
