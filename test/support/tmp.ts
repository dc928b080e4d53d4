import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh empty folder for one test. */
export function tempDir(prefix = 'codegen-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
