/**
 * Which queries a mutation invalidates, derived from the paths ("the same resource"), for the
 * `invalidateAfter<Mutation>` helpers of `query.ts`:
 *
 * - A path's resource is its last literal segment: `/projects/{projectId}/tasks` and
 *   `/tasks/{taskId}` both name `tasks`, the collection and one of its members.
 * - A mutation invalidates the GET operations of its resource, each narrowed to the path
 *   parameters the two share by name (`updateTask` on `/tasks/{taskId}` → `getTask` of that
 *   `taskId`, and every `listProjectTasks`; `createTask` on `/projects/{projectId}/tasks` →
 *   `listProjectTasks` of that `projectId`).
 * - A POST to a collection adds a member: the other members are unchanged, so only the GETs of
 *   collection paths are invalidated.
 * - When the resource has no GET (`POST /tasks/{taskId}/attachments`), the mutation changes the
 *   member it is under: the parent path (`/tasks/{taskId}`) stands for it, once more up at most
 *   until a resource with GETs.
 * - A DELETE also invalidates the GETs under the deleted path (`deleteProject` →
 *   `listProjectTasks` of that `projectId`).
 */
import type { OperationInfo } from './operation-types.js';

/** One query the mutation invalidates: the operation, and the path parameters to narrow it by. */
export interface InvalidatedQuery {
  query: OperationInfo;
  /** Params keys (camelCase) the mutation and the query share, both as path parameters. */
  shared: string[];
}

type Segment = { literal: string } | { param: string };

function segments(path: string): Segment[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((part) => {
      const param = /^\{(.+)\}$/.exec(part);
      return param ? { param: param[1]! } : { literal: part };
    });
}

/** Index of the last literal segment of `path`, -1 when it has none. */
function lastLiteral(path: Segment[]): number {
  for (let i = path.length - 1; i >= 0; i--) if ('literal' in path[i]!) return i;
  return -1;
}

/** The last literal segment, and whether the path ends there (a collection) rather than in a member. */
function resourceOf(path: Segment[]): { name: string; collection: boolean } | undefined {
  const i = lastLiteral(path);
  const segment = path[i];
  return segment && 'literal' in segment ? { name: segment.literal, collection: i === path.length - 1 } : undefined;
}

/** Whether `path` starts with every segment of `prefix` and goes on (parameters by name). */
function isUnder(path: Segment[], prefix: Segment[]): boolean {
  return (
    path.length > prefix.length &&
    prefix.every((segment, i) => {
      const other = path[i]!;
      return 'literal' in segment
        ? 'literal' in other && other.literal === segment.literal
        : 'param' in other && other.param === segment.param;
    })
  );
}

/** The params keys of `info`'s path parameters, by wire name. */
function pathKeys(info: OperationInfo): Map<string, string> {
  return new Map(info.parameters.filter(({ parameter }) => parameter.in === 'path').map(({ parameter, key }) => [parameter.name, key]));
}

/** The queries (GET operations of `queries`) that `mutation` invalidates, in the order of `queries`. */
export function invalidatedQueries(mutation: OperationInfo, queries: OperationInfo[]): InvalidatedQuery[] {
  const own = segments(mutation.operation.path);
  const paths = new Map(queries.map((query) => [query, segments(query.operation.path)]));
  let target = own;
  let addsMember = mutation.operation.method === 'post';
  let chosen: OperationInfo[] = [];
  for (;;) {
    const resource = resourceOf(target);
    if (!resource) break;
    chosen = queries.filter((query) => {
      const of = resourceOf(paths.get(query)!);
      return of?.name === resource.name && !(addsMember && resource.collection && !of.collection);
    });
    if (chosen.length > 0) break;
    // No GET of this resource: the mutation changes the member it is under, if any.
    const literal = lastLiteral(target);
    if (literal <= 0) break;
    target = target.slice(0, literal);
    addsMember = false;
  }
  if (mutation.operation.method === 'delete') {
    const under = queries.filter((query) => !chosen.includes(query) && isUnder(paths.get(query)!, own));
    chosen = queries.filter((query) => chosen.includes(query) || under.includes(query));
  }
  const mine = pathKeys(mutation);
  return chosen.map((query) => {
    const shared = [...pathKeys(query)].filter(([name, key]) => mine.get(name) === key).map(([, key]) => key);
    return { query, shared };
  });
}
