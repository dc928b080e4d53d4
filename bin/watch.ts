/**
 * `codegen --watch`: regenerates whenever something generation reads changes, until SIGINT/SIGTERM
 * (then exits 0). No input, config or error ends it: every failure is printed once for the run it
 * happened in, and the next change runs again. What is watched is re-planned at the start of every
 * run, before anything is read, so a change made while a run reads its files is never missed.
 */
import type { ApiConfig } from '../generators/core/config/config.js';
import { CodegenError, UsageError } from '../generators/core/diagnostics.js';
import { FolderWatchers } from './watch-folders.js';
import { watchPlan } from './watch-plan.js';
import { referencedFiles } from './watch-refs.js';
import { CoalescedRuns } from './watch-runs.js';

export interface WatchSession {
  /** Reads the config; throws when it is invalid. */
  configure: () => Promise<ApiConfig[]>;
  /** Generates and writes `apis`, printing its own summary. */
  generate: (apis: ApiConfig[]) => Promise<unknown>;
  /** Files watched whatever the config says: the config file, so fixing an invalid one recovers. */
  alwaysWatched: string[];
  log: { out: (text: string) => void; err: (text: string) => void };
}

/** An editor's save is a few file events within milliseconds; this gathers them into one run. */
const SETTLE_MS = 100;

export async function watchAndRegenerate(session: WatchSession): Promise<number> {
  const { log } = session;
  // Kept while the config is invalid, so edits to the inputs are still seen.
  let lastApis: ApiConfig[] = [];
  let referenced: string[] = [];
  const folders = new FolderWatchers(() => runs.request(), log.err);
  const runs = new CoalescedRuns(async () => {
    let apis: ApiConfig[] | undefined;
    try {
      apis = await session.configure();
      lastApis = apis;
    } catch (cause) {
      report(cause, log.err);
    }
    try {
      folders.update(watchPlan(apis ?? lastApis, session.alwaysWatched, referenced));
      if (apis) await session.generate(apis);
    } catch (cause) {
      report(cause, log.err);
    }
    try {
      // Files the inputs `$ref` are known once the inputs are read: watch them from now on.
      const found = referencedFiles(apis ?? lastApis);
      if (found.join('\n') !== referenced.join('\n')) {
        referenced = found;
        folders.update(watchPlan(apis ?? lastApis, session.alwaysWatched, referenced));
      }
    } catch (cause) {
      report(cause, log.err);
    }
  }, SETTLE_MS);

  let stopping = false;
  const stopped = new Promise<void>((resolveStop) => {
    const stop = () => {
      stopping = true;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveStop();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  // Alive until stopped, even if no folder could be watched.
  const keepAlive = setInterval(() => undefined, 1 << 30);

  await runs.now();
  if (!stopping) log.out('codegen: watching for changes (Ctrl+C to stop)');
  await stopped;
  // Let a run that is writing finish, then release everything so the process exits by itself.
  await runs.stop();
  folders.close();
  clearInterval(keepAlive);
  return 0;
}

/** Prints any failure of one run: located diagnostics as they are, system errors by message, bugs with their stack. */
function report(cause: unknown, print: (text: string) => void): void {
  if (cause instanceof CodegenError) print(cause.message);
  else if (cause instanceof UsageError) print(`codegen: ${cause.message}`);
  else if (cause instanceof Error && typeof (cause as NodeJS.ErrnoException).code === 'string') print(`codegen: ${cause.message}`);
  else print(`codegen: unexpected error (still watching): ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`);
}
