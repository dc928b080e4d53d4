/**
 * Every item of a paginated operation (cursor or page number), requesting the next page only when
 * the loop needs it: what the generated `<method>All` methods return. The rules that find the next
 * page are exported on their own for the generated TanStack Query infinite options (`query.ts`),
 * so both page alike.
 */
import type { HttpClient, OperationSpec, RequestOptions } from "./http.js";

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function itemsOf<T>(page: unknown, property: string): T[] {
  const items = record(page)[property];
  return Array.isArray(items) ? (items as T[]) : [];
}

/** The cursor of the page after `page` (its `property`), or undefined on the last page. */
export function nextCursor(page: unknown, property: string): string | undefined {
  const next = record(page)[property];
  // Absent, null or empty: the last page.
  return next === undefined || next === null || next === "" ? undefined : String(next);
}

/**
 * The number of the page after `pages`' last one, numbered `last`, or undefined when that one was
 * short or empty: the last. Full pages hold `pageSize` items, or without it as many as the first.
 */
export function nextPage(pages: readonly unknown[], last: number, items: string, pageSize?: number): number | undefined {
  const count = itemsOf(pages[pages.length - 1], items).length;
  const fullPage = pageSize ?? itemsOf(pages[0], items).length;
  return count === 0 || count < fullPage ? undefined : last + 1;
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
    const seen = new Set<string>();
    for (;;) {
      const page = (await http.send(spec, query, options)).data;
      yield* itemsOf<T>(page, pagination.items);
      const next = nextCursor(page, pagination.nextCursor);
      if (next === undefined) return;
      if (seen.has(next)) throw new Error(`${spec.id}: the server returned cursor ${JSON.stringify(next)} twice`);
      seen.add(next);
      query[pagination.cursor] = next;
    }
  }
  const pageSize = typeof query[pagination.pageSize] === "number" ? (query[pagination.pageSize] as number) : undefined;
  const pages: unknown[] = [];
  let number: number | undefined = typeof query[pagination.page] === "number" ? (query[pagination.page] as number) : 1;
  while (number !== undefined) {
    query[pagination.page] = number;
    const page = (await http.send(spec, query, options)).data;
    yield* itemsOf<T>(page, pagination.items);
    // Only the first page (it sets the size without a pageSize) and the last matter.
    pages.splice(1, 1, page);
    number = nextPage(pages, number, pagination.items, pageSize);
  }
}
