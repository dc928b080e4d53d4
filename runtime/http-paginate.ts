/**
 * Every item of a paginated operation (cursor or page number), requesting the next page only when
 * the loop needs it: what the generated `<method>All` methods return.
 */
import type { HttpClient, OperationSpec, RequestOptions } from "./http.js";

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function itemsOf<T>(page: Record<string, unknown>, property: string): T[] {
  const items = page[property];
  return Array.isArray(items) ? (items as T[]) : [];
}

/** Every item of the operation `spec`, page after page. */
export async function* paginate<T>(
  http: HttpClient,
  spec: OperationSpec,
  params: object | undefined,
  options?: RequestOptions,
): AsyncGenerator<T, void, undefined> {
  const pagination = spec.pagination;
  if (!pagination) throw new TypeError(`${spec.id} is not paginated`);
  const query = { ...record(params) };
  if (pagination.kind === "cursor") {
    const seen = new Set<unknown>();
    for (;;) {
      const page = record((await http.send(spec, query, options)).data);
      yield* itemsOf<T>(page, pagination.items);
      const next = page[pagination.nextCursor];
      if (next === undefined || next === null || next === "") return;
      if (seen.has(next)) throw new Error(`${spec.id}: the server returned cursor ${JSON.stringify(next)} twice`);
      seen.add(next);
      query[pagination.cursor] = next;
    }
  }
  let number = typeof query[pagination.page] === "number" ? (query[pagination.page] as number) : 1;
  let fullPage = typeof query[pagination.pageSize] === "number" ? (query[pagination.pageSize] as number) : undefined;
  for (;;) {
    query[pagination.page] = number;
    const items = itemsOf<T>(record((await http.send(spec, query, options)).data), pagination.items);
    yield* items;
    // A short (or empty) page is the last one; without a pageSize, the first page sets the size.
    fullPage ??= items.length;
    if (items.length === 0 || items.length < fullPage) return;
    number += 1;
  }
}
