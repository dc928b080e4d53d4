/**
 * codegen's own version, read from its package.json at run time (as dependencies.ts reads the
 * tested ranges), so the header of the runtime files it writes names the release that wrote them.
 */
import { codegenPackageJson } from './dependencies.js';

export function codegenVersion(): string {
  const { version } = codegenPackageJson() as { version?: unknown };
  if (typeof version !== 'string' || version === '') throw new Error("codegen's own package.json has no version");
  return version;
}
