/** One file an emitter wants written, relative to the API's output folder. */
export interface GeneratedFile {
  /** `/`-separated path relative to the output folder, e.g. `runtime/http.ts`. */
  path: string;
  content: string;
}
