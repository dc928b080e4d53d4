import { defineRule } from '../../rule.js';
import { PROTO_PATH } from '../../proto-context.js';

const WELL_KNOWN = /^\.google\.protobuf\./;

/**
 * Each rpc has its own request message, and a `…Response` message belongs to one rpc, so one rpc
 * can change without the other (seed §9.4). A resource message (`Task`) may be the answer of
 * several rpcs, as Get/Create/Update return the resource in Google's API design (AIP-131/133/134).
 */
export const uniqueRpcMessages = defineRule({
  id: 'grpc/unique-rpc-messages',
  style: 'proto',
  severity: 'warning',
  section: '§9',
  docs: 'Each rpc has its own request message, and a …Response message belongs to one rpc (a resource message may answer several).',
  check(context) {
    for (const file of context.files) {
      const requests = new Map<string, string>();
      const responses = new Map<string, string>();
      file.service.forEach((service, s) => {
        service.method.forEach((method, m) => {
          const name = `${service.name}.${method.name}`;
          const sides = [
            { type: method.inputType, field: PROTO_PATH.methodInput, seen: requests, own: `${method.name}Request` },
            { type: method.outputType, field: PROTO_PATH.methodOutput, seen: responses, own: `${method.name}Response` },
          ];
          for (const { type, field, seen, own } of sides) {
            if (WELL_KNOWN.test(type)) continue;
            if (field === PROTO_PATH.methodOutput && !/Response$/.test(type)) continue;
            const owner = seen.get(type);
            if (owner === undefined) seen.set(type, name);
            else
              context.report(
                file,
                [PROTO_PATH.service, s, PROTO_PATH.serviceMethod, m, field],
                `${name} uses ${type.slice(1)}, which ${owner} uses too; give each rpc its own ${own} message, so one rpc's fields can change without the other's (§9)`,
              );
          }
        });
      });
    }
  },
});
