/**
 * The Node 22 and 24 that test/run.js runs the e2e files under (devDependencies `node22`,
 * `node24`; test/node-runtimes.js) are installed and are those versions, and neither shadows the
 * machine's Node as node_modules/.bin/node (the `prepare` step of `npm ci` removes the link npm
 * makes for them).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

describe('extra Node runtimes for the e2e tests', () => {
  it('are Node 22 and 24, each running from its package', () => {
    const binaries = ['node22', 'node24'].map((alias) => join(ROOT, 'node_modules', alias, 'bin', 'node'));
    const versions = binaries.map((binary) => spawnSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim());
    expect(versions.map((version) => version.split('.')[0])).toEqual(['22', '24']);
  });

  it("do not take the name `node` in node_modules/.bin, so npm scripts and npx run the machine's Node", () => {
    expect(existsSync(join(ROOT, 'node_modules', '.bin', 'node'))).toBe(false);
  });
});
