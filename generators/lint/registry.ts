/** Every lint rule, in the order of the README table. */
import type { LintRule, LintStyle } from './rule.js';
import { createReturns201 } from './rules/rest/create-returns-201.js';
import { deleteWithoutBody } from './rules/rest/delete-without-body.js';
import { idempotencyKey } from './rules/rest/idempotency-key.js';
import { maxNesting } from './rules/rest/max-nesting.js';
import { noPostForRead } from './rules/rest/no-post-for-read.js';
import { noSecretsInQuery } from './rules/rest/no-secrets-in-query.js';
import { noVerbsInPaths } from './rules/rest/no-verbs-in-paths.js';
import { paginationStyle } from './rules/rest/pagination-style.js';
import { problemDetails } from './rules/rest/problem-details.js';
import { errorsNot200 } from './rules/rest/errors-not-200.js';
import { rateLimit429 } from './rules/rest/rate-limit-429.js';
import { conditionalGet } from './rules/rest/conditional-get.js';
import { queryConventions } from './rules/rest/query-conventions.js';
import { subscriptionArguments } from './rules/graphql/subscription-arguments.js';
import { deprecatedReason } from './rules/graphql/deprecated-reason.js';
import { mutationPayload } from './rules/graphql/mutation-payload.js';
import { paginateLists } from './rules/graphql/paginate-lists.js';
import { enumZeroUnspecified } from './rules/proto/enum-zero-unspecified.js';
import { fieldNames } from './rules/proto/field-names.js';
import { packageVersion } from './rules/proto/package-version.js';
import { uniqueRpcMessages } from './rules/proto/unique-rpc-messages.js';
import { browserStreaming } from './rules/proto/browser-streaming.js';
import { boundedClientPayloads } from './rules/realtime/bounded-client-payloads.js';
import { messageDiscriminator } from './rules/realtime/message-discriminator.js';
import { websocketAuth } from './rules/realtime/websocket-auth.js';
import { sseResume } from './rules/realtime/sse-resume.js';
import { sseRetry } from './rules/realtime/sse-retry.js';

export const RULES: readonly LintRule[] = [
  noVerbsInPaths,
  noPostForRead,
  maxNesting,
  createReturns201,
  deleteWithoutBody,
  problemDetails,
  idempotencyKey,
  paginationStyle,
  noSecretsInQuery,
  errorsNot200,
  rateLimit429,
  conditionalGet,
  queryConventions,
  paginateLists,
  mutationPayload,
  deprecatedReason,
  subscriptionArguments,
  packageVersion,
  uniqueRpcMessages,
  enumZeroUnspecified,
  fieldNames,
  browserStreaming,
  websocketAuth,
  messageDiscriminator,
  boundedClientPayloads,
  sseRetry,
  sseResume,
] as LintRule[];

export const RULE_IDS: readonly string[] = RULES.map((rule) => rule.id);

export function rulesFor(style: LintStyle): LintRule[] {
  return RULES.filter((rule) => rule.style === style);
}
