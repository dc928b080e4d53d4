/**
 * Convention stages told by their parts (before the rest of the pipeline, after it, on a problem),
 * so the server core runs a whole chain with one continuation instead of a promise per stage, and
 * with none when nothing awaits; and the `Stage` of such a stage, for composing by hand.
 */
import { HttpProblem } from "./server-types.js";
import type { Next, ServerRequest, ServerResponse, Stage } from "./server-types.js";

/** A stage told as what it does before the rest of the pipeline and after it. */
export interface SplitStage {
  /**
   * Before the rest: a response answers here (the rest does not run, and this stage's `after` is
   * not applied to it); `undefined` goes on; a throw answers with the problem. A promise only when
   * there is something to wait for.
   */
  before?: (request: ServerRequest) => ServerResponse | undefined | Promise<ServerResponse | undefined>;
  /** The response of the rest, completed in place (it belongs to this request alone). */
  after?: (request: ServerRequest, response: ServerResponse) => ServerResponse;
  /** A problem the rest threw, completed in place before it goes on. */
  failed?: (request: ServerRequest, problem: HttpProblem) => void;
}

/** A `Stage` that the core can also run by its parts. */
export type SplitStageFunction = Stage & { readonly split: SplitStage };

/** The `Stage` of a split stage: `before`, then `next` with `after` or `failed` applied. */
export function splitStage(split: SplitStage): SplitStageFunction {
  const { before, after, failed } = split;
  const rest = (request: ServerRequest, next: Next): Promise<ServerResponse> => {
    let pending: Promise<ServerResponse>;
    try {
      pending = next();
    } catch (error) {
      pending = Promise.reject(error);
    }
    return pending.then(
      after && ((response) => after(request, response)),
      failed &&
        ((error: unknown) => {
          if (error instanceof HttpProblem) failed(request, error);
          throw error;
        }),
    );
  };
  const stage: Stage = async (request, next) => {
    const early = before?.(request);
    const answer = early instanceof Promise ? await early : early;
    return answer ?? rest(request, next);
  };
  return Object.assign(stage, { split });
}
