/**
 * test/provision.js, the first step of `npm test`, run as a real process without root: a missing
 * program stops it with one line naming what to install (and no apt-get), present ones pass
 * silently. The root path, apt-get installing Chromium, redis-server and nginx, is what CI's fresh
 * machine exercises on every `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

const NOBODY = '65534';

/** Calls `provision(programs)` in a new Node process, as `nobody` when this runs as root. */
function provisionAsUser(programs: Array<{ path: string; debianPackage: string; usedBy: string }>) {
  const script = `import { provision } from './test/provision.js'; process.exitCode = provision(${JSON.stringify(programs)});`;
  const node = [process.execPath, '--input-type=module', '-e', script];
  const [command, ...args] =
    process.getuid?.() === 0 ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...node] : node;
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm test provisioning (test/provision.js) without root', () => {
  it('stops with one line naming the missing programs and the apt-get command', () => {
    const result = provisionAsUser([
      { path: '/usr/bin/sh', debianPackage: 'dash', usedBy: 'scripts' },
      { path: '/nonexistent/redis-server', debianPackage: 'redis-server', usedBy: 'the Redis store tests' },
      { path: '/nonexistent/chromium', debianPackage: 'chromium', usedBy: 'the browser tests' },
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'npm test: /nonexistent/redis-server (the Redis store tests) and /nonexistent/chromium (the browser tests) not installed; ' +
        'install them with: sudo apt-get install redis-server chromium, then run npm test again.\n',
    );
  });

  it('passes silently when every program is there', () => {
    expect(provisionAsUser([{ path: '/usr/bin/sh', debianPackage: 'dash', usedBy: 'scripts' }])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });
});
