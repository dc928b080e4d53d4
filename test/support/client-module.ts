/**
 * The generated tasks client the tests import at run time, typed as codegen generates it for
 * schemas/openapi/tasks.yaml: out/rest/client.ts, the committed output of the same input.
 */
export type ClientModule = typeof import('../../out/rest/client.js');
export type TasksClient = import('../../out/rest/client.js').TasksApiClient;
