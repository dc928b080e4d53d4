/**
 * What the service files of a proto API (`server.ts`, `client.ts`, `client-web.ts`,
 * `client-rest.ts`) share in how they are built: the names their templates' own code uses, the
 * runtime's public API they re-export, and the call modes of a method.
 */
import type { FileBuilder, ImportSymbol } from '../core/builder/file.js';
import type { MethodInfo } from './server-model.js';

/**
 * Imports the names a template's fixed code prints that are not runtime exports, as they are
 * (`MessageInitShape`, `Transport`, the handler file's `Code`; runtime names come from
 * `{{runtime}}`). Imported before anything else, so a message of the same name is the one
 * aliased; the file's own names never take them.
 */
export function importNamed(file: FileBuilder, symbols: readonly ImportSymbol[]): void {
  for (const symbol of symbols) {
    const local = file.use(symbol);
    if (local !== symbol.name) throw new Error(`codegen: ${file.path} declares ${symbol.name}, which its template imports`);
  }
}

export function streamsRequests(method: MethodInfo): boolean {
  return method.kind === 'client_streaming' || method.kind === 'bidi_streaming';
}

export function streamsResponses(method: MethodInfo): boolean {
  return method.kind === 'server_streaming' || method.kind === 'bidi_streaming';
}
