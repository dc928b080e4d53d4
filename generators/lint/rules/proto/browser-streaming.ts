import { defineRule } from '../../rule.js';
import { PROTO_PATH } from '../../proto-context.js';

/** google.api.http's field number on MethodOptions. */
const HTTP_RULE = 72295728;
const METHOD_OPTIONS = 4;

/**
 * Browsers (gRPC-Web, and REST through google.api.http) get unary and server streaming only (seed
 * §4.6, §8): an HTTP route on a client- or bidi-streaming rpc is never served.
 */
export const browserStreaming = defineRule({
  id: 'grpc/browser-streaming',
  style: 'proto',
  severity: 'warning',
  section: '§4.6',
  docs: 'google.api.http routes (for browsers and REST) only on unary and server-streaming rpcs.',
  check(context) {
    for (const file of context.files) {
      const locations = file.sourceCodeInfo?.location ?? [];
      file.service.forEach((service, s) => {
        service.method.forEach((method, m) => {
          if (!method.clientStreaming) return;
          const prefix = [PROTO_PATH.service, s, PROTO_PATH.serviceMethod, m, METHOD_OPTIONS, HTTP_RULE];
          if (!locations.some((location) => prefix.every((n, i) => location.path[i] === n))) return;
          const mode = method.serverStreaming ? 'bidirectional' : 'client';
          context.report(
            file,
            prefix,
            `${service.name}.${method.name} is ${mode} streaming and has a google.api.http route; browsers and REST clients get unary and server streaming only (§4.6, §8), so the route is never served: remove the option, or split the rpc into unary calls`,
          );
        });
      });
    }
  },
});
