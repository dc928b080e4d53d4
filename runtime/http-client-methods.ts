/**
 * The methods of a generated `createClient`'s object, built from its operation descriptions (the
 * `<method>Operation` constants of `client-operations`): one per operation, sending it through
 * `http.call`, and `<method>All` per paginated one. Built at run time rather than written out as
 * one arrow function per operation, so a project's `tsc` reads the client's declared interface
 * instead of checking every method's call (a third of GitHub's client.ts check).
 */
import type { HttpClient, OperationSpec, RequestOptions } from "./http.js";

/** `http-paginate.js`'s `paginate`, passed in by clients with paginated operations only. */
export type Paginate = (
  http: HttpClient,
  spec: OperationSpec,
  params: object | undefined,
  options?: RequestOptions,
) => AsyncIterableIterator<unknown>;

/**
 * One method per description in `operations` (a module namespace of them), named by its `id`; an
 * operation without parameters takes the call's options first, as the generated interface says.
 */
export function clientMethods(http: HttpClient, operations: object, paginate?: Paginate): object {
  // Method names are camelCase identifiers (never `__proto__`), so plain assignment defines them.
  const methods: Record<string, unknown> = {};
  for (const spec of Object.values(operations) as OperationSpec[]) {
    const takesParams = spec.params !== undefined || spec.body !== undefined;
    methods[spec.id] = takesParams
      ? (params?: object, options?: RequestOptions) => http.call(spec, params, options)
      : (options?: RequestOptions) => http.call(spec, undefined, options);
    // A paginated operation always has parameters: its page or cursor.
    if (spec.iterator !== undefined && paginate) {
      methods[spec.iterator] = (params?: object, options?: RequestOptions) => paginate(http, spec, params, options);
    }
  }
  return methods;
}
