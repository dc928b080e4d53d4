/**
 * `codegen-ts/mock`: mock handlers for the generated GraphQL and gRPC servers, answering from the
 * schema, deterministic by seed — for a user's tests and for `codegen mock`. Loaded only by who
 * imports it: the CLI and `codegen-ts` itself never do, so graphql and protobuf-es stay unloaded.
 */
export { graphqlMockResolvers, type GraphQLMockOptions, type GraphQLMockResolvers } from './graphql/mock.js';
export {
  grpcMockServices,
  type GrpcMockCallContext,
  type GrpcMockHandler,
  type GrpcMockOptions,
  type GrpcMockServices,
} from './proto/mock.js';
