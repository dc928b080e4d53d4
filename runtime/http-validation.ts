/**
 * Response validation for the REST client's `validateResponses` option: `checkResponses` turns
 * the generated validators of each operation's 2xx bodies into the check the client runs. The
 * generated `response-validators.ts` calls it, so only apps that validate bundle this module.
 */
import { ApiInvalidResponseError, type ApiResponse, type ResponseValidators } from "./http-results.js";

/**
 * One way a response body differs from its schema.
 * @public
 */
export interface ValidationIssue {
  /** JSON pointer into the body. */
  path: string;
  keyword?: string;
  message: string;
}

/**
 * A validator generated from a schema (see `validators.ts`).
 * @public
 */
export type ResponseValidator = (value: unknown) => { ok: true } | { ok: false; errors: readonly ValidationIssue[] };

/**
 * A 2xx body does not match its schema (only with `validateResponses`).
 * @public
 */
export class ResponseValidationError extends ApiInvalidResponseError {
  override readonly name: string = "ResponseValidationError";
  readonly errors: readonly ValidationIssue[];

  constructor(operation: string, method: string, url: string, response: ApiResponse, errors: readonly ValidationIssue[]) {
    super(
      operation,
      method,
      url,
      response,
      `does not match its schema: ${errors.map((issue) => `${issue.path || "/"} ${issue.message}`).join("; ")}`,
    );
    this.errors = errors;
  }
}

/** The check of `validateResponses`: the validators of each operation's 2xx bodies by status, keyed by client method name. */
export function checkResponses(validators: Readonly<Record<string, Readonly<Record<number, ResponseValidator>>>>): ResponseValidators {
  return (operation, method, url, response) => {
    const validator = Object.hasOwn(validators, operation) ? validators[operation]?.[response.status] : undefined;
    const outcome = validator?.(response.data);
    if (outcome && !outcome.ok) throw new ResponseValidationError(operation, method, url, response, outcome.errors);
  };
}
