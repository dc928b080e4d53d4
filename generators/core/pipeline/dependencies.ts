/**
 * What the generated code needs from the user's project. The packages are derived from the
 * generated files themselves (their import specifiers), never from a hand-kept list, and their
 * version ranges are the ones codegen is tested with: its own package.json. Comparing them with
 * the project's package.json gives a ready-to-paste install command for what is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileImportSpecifiers } from './import-specifiers.js';
import type { GeneratedFile } from './output.js';
import { displayPath } from './paths.js';

export interface Requirement {
  /** Package name, e.g. `graphql-ws` for an import of `graphql-ws/use/ws`. */
  name: string;
  /** The range codegen is tested with; undefined when codegen's own package.json does not list it. */
  range?: string;
  /** A devDependency: `@types/*`, packages imported only with `import type`, and test-only ones (msw). */
  dev: boolean;
}

export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

export interface MissingPackages {
  /** The nearest package.json above the output folder; undefined when there is none. */
  packageJson?: string;
  /** Why the package.json could not be read (then nothing counts as declared). */
  unreadable?: string;
  /** The package.json files whose declarations count: the nearest and, in a workspace, those up to its root. */
  declaredIn: string[];
  /** From `packageManager` or a lockfile beside the package.json or the workspace root; npm otherwise. */
  manager: PackageManager;
  dependencies: Requirement[];
  devDependencies: Requirement[];
}

/** Packages only tests import (`msw.ts` of `emit: [msw]`): devDependencies, like types. */
const TEST_PACKAGES = new Set(['msw']);

const DECLARATION_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;
const LOCKFILES: [string, PackageManager][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];
const BUILTINS = new Set(builtinModules);

type PackageJson = Partial<Record<(typeof DECLARATION_FIELDS)[number], Record<string, string>>> & {
  workspaces?: unknown;
  packageManager?: string;
};

/** The packages the generated files of `sets` import, sorted by name, with codegen's tested ranges. */
export function requiredPackages(sets: { files: GeneratedFile[] }[]): Requirement[] {
  // name → whether every import of it is type-only (so far).
  const imported = new Map<string, boolean>();
  const note = (name: string, typeOnly: boolean) => imported.set(name, (imported.get(name) ?? true) && typeOnly);
  for (const file of sets.flatMap((set) => set.files)) {
    if (!/\.[cm]?[tj]sx?$/.test(file.path)) continue;
    for (const { specifier, typeOnly } of fileImportSpecifiers(file)) {
      const name = packageName(specifier);
      if (name === 'node') note('@types/node', true);
      else if (name) note(name, typeOnly);
    }
  }
  const own = codegenPackageJson();
  const ranges = Object.assign(
    {},
    ...['peerDependencies', 'optionalDependencies', 'devDependencies', 'dependencies'].map(
      (field) => own[field as keyof PackageJson] ?? {},
    ),
  ) as Record<string, string>;
  for (const name of [...imported.keys()]) {
    // A package typed by DefinitelyTyped, as codegen's own package.json shows (ws → @types/ws).
    const types = typesPackage(name);
    if (types !== name && ranges[types]) note(types, true);
  }
  return [...imported]
    .map(([name, typeOnly]) => ({ name, range: ranges[name], dev: typeOnly || name.startsWith('@types/') || TEST_PACKAGES.has(name) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The package an import specifier names: `@connectrpc/connect-node` for itself,
 * `graphql-ws` for `graphql-ws/use/ws`, `node` for Node's built-ins; undefined for relative
 * paths, URLs and `#` subpath imports.
 */
export function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0])) return 'node';
  if (/^[./#]/.test(specifier) || /^[a-z][a-z0-9+.-]*:/i.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** `ws` → `@types/ws`, `@scope/name` → `@types/scope__name` (DefinitelyTyped's naming). */
function typesPackage(name: string): string {
  if (name.startsWith('@types/')) return name;
  return `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
}

let ownPackageJson: PackageJson | undefined;

/**
 * codegen's own package.json, found from this module's location: the source tree in tests,
 * `dist/` in the repository, `node_modules/<codegen>/dist/` once installed.
 */
export function codegenPackageJson(): PackageJson {
  if (ownPackageJson) return ownPackageJson;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (ownPackageJson = JSON.parse(readFileSync(file, 'utf8')) as PackageJson);
    if (dirname(dir) === dir) throw new Error(`codegen's own package.json was not found above ${fileURLToPath(import.meta.url)}`);
  }
}

/**
 * What of `requirements` the project around `fromFolder` does not declare. The project is the
 * nearest package.json above the folder; in a workspace (a package.json with `workspaces`, or a
 * pnpm-workspace.yaml, further up) the package.json files up to the workspace root count too, since
 * what they declare resolves from every member. Outside a workspace, package.json files further up
 * (a home folder's) do not count. Every declaration field counts.
 */
export function missingPackages(requirements: Requirement[], fromFolder: string): MissingPackages {
  const chain = projectChain(resolve(fromFolder));
  if (!chain)
    return {
      declaredIn: [],
      manager: 'npm',
      dependencies: requirements.filter((r) => !r.dev),
      devDependencies: requirements.filter((r) => r.dev),
    };
  const declared = new Set<string>();
  let unreadable: string | undefined;
  for (const { file, packageJson, problem } of chain.packageJsons) {
    if (problem && file === chain.packageJsons[0].file) unreadable = problem;
    for (const field of DECLARATION_FIELDS) for (const name of Object.keys(packageJson?.[field] ?? {})) declared.add(name);
  }
  const missing = requirements.filter((requirement) => !declared.has(requirement.name));
  return {
    packageJson: chain.packageJsons[0].file,
    unreadable,
    declaredIn: chain.packageJsons.map(({ file }) => file),
    manager: packageManager(chain.packageJsons),
    dependencies: missing.filter((requirement) => !requirement.dev),
    devDependencies: missing.filter((requirement) => requirement.dev),
  };
}

interface ReadPackageJson {
  file: string;
  packageJson?: PackageJson;
  problem?: string;
}

/** The nearest package.json above `folder`, then those up to its workspace root (if any). */
function projectChain(folder: string): { packageJsons: ReadPackageJson[] } | undefined {
  let dir = folder;
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
  const nearest = readPackageJson(join(dir, 'package.json'));
  if (isWorkspaceRoot(dir, nearest.packageJson)) return { packageJsons: [nearest] };
  const above: ReadPackageJson[] = [];
  for (let parent = dirname(dir); parent !== dir; dir = parent, parent = dirname(parent)) {
    const file = join(parent, 'package.json');
    const read = existsSync(file) ? readPackageJson(file) : undefined;
    if (read) above.push(read);
    if (isWorkspaceRoot(parent, read?.packageJson)) return { packageJsons: [nearest, ...above] };
  }
  return { packageJsons: [nearest] };
}

function readPackageJson(file: string): ReadPackageJson {
  try {
    const packageJson = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof packageJson !== 'object' || packageJson === null || Array.isArray(packageJson))
      return { file, problem: 'it is not a JSON object' };
    return { file, packageJson: packageJson as PackageJson };
  } catch (cause) {
    return { file, problem: (cause as Error).message };
  }
}

function isWorkspaceRoot(dir: string, packageJson: PackageJson | undefined): boolean {
  return packageJson?.workspaces !== undefined || existsSync(join(dir, 'pnpm-workspace.yaml'));
}

function packageManager(packageJsons: ReadPackageJson[]): PackageManager {
  const known = (name: string | undefined): name is PackageManager =>
    name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun';
  // The nearest and the workspace root (the last) are where a package manager is declared.
  const places = [...new Set([packageJsons[0], packageJsons[packageJsons.length - 1]])];
  for (const { packageJson } of places) {
    const declared = packageJson?.packageManager?.split('@')[0];
    if (known(declared)) return declared;
  }
  for (const { file } of places) {
    for (const [lockfile, manager] of LOCKFILES) if (existsSync(join(dirname(file), lockfile))) return manager;
  }
  return 'npm';
}

/** The install command lines for `missing`: one for dependencies, one (`-D`) for devDependencies. */
export function installCommands(missing: Pick<MissingPackages, 'manager' | 'dependencies' | 'devDependencies'>): string[] {
  const command = missing.manager === 'npm' ? 'npm install' : `${missing.manager} add`;
  const specs = (requirements: Requirement[]) =>
    requirements.map(({ name, range }) => shellWord(range ? `${name}@${range}` : name)).join(' ');
  const lines: string[] = [];
  if (missing.dependencies.length > 0) lines.push(`${command} ${specs(missing.dependencies)}`);
  if (missing.devDependencies.length > 0) lines.push(`${command} -D ${specs(missing.devDependencies)}`);
  return lines;
}

/** Quoted only when a POSIX shell would split or expand it (a range like `>=1 <2`). */
function shellWord(word: string): string {
  return /^[\w@/.^~:+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface MissingPackagesReport {
  /** What to print (on stderr): empty when nothing is missing. */
  lines: string[];
  /** A package.json was found and lacks something: `--check` fails. */
  missing: boolean;
}

/**
 * The message the CLI prints after generating: per project (output folders grouped by their
 * nearest package.json), the install command for what it lacks; outputs with no package.json
 * above them are named once, with the command for everything they import.
 */
export function missingPackagesReport(sets: { folder: string; files: GeneratedFile[] }[], cwd = process.cwd()): MissingPackagesReport {
  const byProject = new Map<string, { folders: string[]; sets: typeof sets; result?: MissingPackages }>();
  for (const set of sets) {
    const chain = projectChain(resolve(set.folder));
    const key = chain?.packageJsons[0].file ?? '';
    const group = byProject.get(key) ?? { folders: [], sets: [] };
    group.folders.push(set.folder);
    group.sets.push(set);
    byProject.set(key, group);
  }
  const lines: string[] = [];
  let missing = false;
  for (const [packageJson, group] of byProject) {
    const result = missingPackages(requiredPackages(group.sets), group.folders[0]);
    const commands = installCommands(result);
    if (commands.length === 0) continue;
    if (!packageJson) {
      lines.push(
        `codegen: no package.json above ${group.folders.map((folder) => displayPath(folder, cwd)).join(', ')}; the generated code imports these packages, install them with:`,
      );
    } else {
      const projectFolder = dirname(packageJson);
      const where = projectFolder === resolve(cwd) ? '' : ` in ${displayPath(projectFolder, cwd)}`;
      const which = where ? displayPath(packageJson, cwd) : 'this project';
      if (result.unreadable)
        lines.push(
          `codegen: could not read ${displayPath(packageJson, cwd)} (${result.unreadable}), so every package the generated code imports is listed`,
        );
      lines.push(`codegen: the generated code imports packages ${which} does not list; install them${where} with:`);
      missing = true;
    }
    lines.push(...commands.map((command) => `  ${command}`));
  }
  return { lines, missing };
}
