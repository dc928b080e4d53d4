/**
 * What the service files of a proto API (`server.ts`, `client.ts`, `client-web.ts`,
 * `client-rest.ts`) share in how they are built: the names their templates' own code uses, the
 * runtime's public API they re-export, and the call modes of a method.
 */
import { typeSymbol, type FileBuilder, type ImportSymbol } from '../core/builder/file.js';
import type { MethodInfo } from './server-model.js';

/**
 * Imports the symbols a template's fixed code names as they are (`serveGrpc`, `CallOptions`...).
 * Imported before anything else, so a message of the same name is the one aliased; the file's
 * own names never take them.
 */
export function importNamed(file: FileBuilder, symbols: readonly ImportSymbol[]): void {
  for (const symbol of symbols) {
    const local = file.use(symbol);
    if (local !== symbol.name) throw new Error(`codegen: ${file.path} declares ${symbol.name}, which its template imports`);
  }
}

/** `symbol` used only in type positions: imported with `import type` even if it is also a value. */
export function asType(symbol: ImportSymbol): ImportSymbol {
  return typeSymbol(symbol.name, symbol.from);
}

export function streamsRequests(method: MethodInfo): boolean {
  return method.kind === 'client_streaming' || method.kind === 'bidi_streaming';
}

export function streamsResponses(method: MethodInfo): boolean {
  return method.kind === 'server_streaming' || method.kind === 'bidi_streaming';
}
