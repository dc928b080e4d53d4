/**
 * What an action in a REST path is, decided in one place so the rules that ask agree:
 * rest/no-verbs-in-paths reports it, rest/max-nesting does not count it as a collection, and
 * rest/idempotency-key (through `isCreate`) does not take it for a create unless it creates.
 *
 * An action is a custom method (`/tasks/{id}:archive`, Google AIP-136), or a last segment that
 * starts with a verb: a read verb on any method (`/getTasks`, `/user/get_emails`), any other verb
 * when the path takes a POST (`/tasks/{id}/archive`, `/user/validate_password`). A GET-only
 * `/image/clone_format_version` names a thing, not an action. Segments before the last are actions
 * only with a verb that is never a noun (`/getTasks/{id}`, not `/auth/check`'s `auth`).
 */
import { words } from '../core/builder/names.js';

/** What calling the action twice does. */
export type ActionEffect =
  /** a second resource (`copy`, `clone`): the call is a create */
  | 'creates'
  /** the thing again (`send`, `run`): a retry is not harmless */
  | 'repeats'
  /** the same state or answer (`archive`, `purge`, `validate`, `login`) */
  | 'settles';

export interface PathAction {
  /** The segment as written (`validate_password`, `{id}:archive`). */
  segment: string;
  verb: string;
  effect: ActionEffect;
}

const READS = ['get', 'list', 'fetch', 'retrieve', 'read'];
const CREATES = ['create', 'add', 'make', 'post', 'copy', 'clone', 'duplicate', 'fork', 'import'];
const REPEATS = [
  'send',
  'resend',
  'run',
  'rerun',
  'retry',
  'execute',
  'trigger',
  'submit',
  'notify',
  'dispatch',
  'invoke',
  'increment',
  'decrement',
];
const SETTLES = [
  ...READS,
  'delete',
  'remove',
  'update',
  'set',
  'edit',
  'modify',
  'do',
  'put',
  'patch',
  'archive',
  'unarchive',
  'cancel',
  'approve',
  'reject',
  'publish',
  'unpublish',
  'activate',
  'deactivate',
  'enable',
  'disable',
  'start',
  'stop',
  'restart',
  'pause',
  'resume',
  'reset',
  'validate',
  'verify',
  'check',
  'test',
  'purge',
  'flush',
  'clear',
  'rollback',
  'revert',
  'merge',
  'restore',
  'move',
  'rename',
  'identify',
  'change',
  'login',
  'logout',
  'signin',
  'signout',
  'authenticate',
  'auth',
  'refresh',
  'sync',
  'export',
  'lock',
  'unlock',
  'reweight',
  'repair',
  'mark',
  'apply',
  'confirm',
  'accept',
  'deploy',
  'install',
  'uninstall',
  'upgrade',
];
const EFFECTS = new Map<string, ActionEffect>([
  ...SETTLES.map((verb) => [verb, 'settles'] as const),
  ...REPEATS.map((verb) => [verb, 'repeats'] as const),
  ...CREATES.map((verb) => [verb, 'creates'] as const),
]);

/**
 * Verbs that are also nouns (`/nfs/export` lists exports, `check-runs`, `auth_providers`): an action
 * only as the whole last segment of a path without a GET (`/auth/check`, `/pullrequests/{id}/merge`).
 */
const ALSO_NOUNS = new Set([
  'check',
  'test',
  'run',
  'lock',
  'export',
  'import',
  'copy',
  'set',
  'mark',
  'merge',
  'post',
  'patch',
  'auth',
  'login',
  'refresh',
  'sync',
  'deploy',
  'restore',
  'start',
  'retry',
  'submit',
]);

/** The methods declared on a path, which tell an action (POSTed to) from a thing (read with GET). */
export type PathMethods = ReadonlySet<string>;

/** The action a path ends in (`/tasks/{id}/archive`, `/tasks/{id}:archive`), if any. */
export function finalAction(path: string, methods: PathMethods): PathAction | undefined {
  const segment = path.split('/').pop() ?? '';
  const custom = /:([A-Za-z][\w-]*)$/.exec(segment);
  if (custom) {
    // A custom method is an action whatever its verb; its effect is the strongest of its words' (`batchCreate` creates).
    const verbWords = words(custom[1] ?? '').map((word) => word.toLowerCase());
    return { segment, verb: verbWords[0] ?? '', effect: strongest(verbWords) };
  }
  const action = verbSegment(segment);
  if (action === undefined || (ALSO_NOUNS.has(action.verb) && (words(segment).length > 1 || methods.has('get')))) return undefined;
  return READS.includes(action.verb) || methods.has('post') ? action : undefined;
}

/** Every action segment of a path, in order: verbs that are never nouns before the last, and its final action. */
export function pathActions(path: string, methods: PathMethods): PathAction[] {
  const segments = path.split('/').slice(0, -1);
  const before = segments.flatMap((segment) => {
    const action = verbSegment(segment);
    return action && !ALSO_NOUNS.has(action.verb) ? [action] : [];
  });
  const last = finalAction(path, methods);
  return last ? [...before, last] : before;
}

/** A literal segment whose first word is a verb of the vocabulary. */
function verbSegment(segment: string): PathAction | undefined {
  if (segment.includes('{')) return undefined;
  const verb = words(segment)[0]?.toLowerCase() ?? '';
  const effect = EFFECTS.get(verb);
  return effect === undefined ? undefined : { segment, verb, effect };
}

function strongest(verbWords: string[]): ActionEffect {
  const effects = verbWords.map((word) => EFFECTS.get(word));
  return effects.includes('creates') ? 'creates' : effects.includes('repeats') ? 'repeats' : 'settles';
}
