/**
 * gRPC health checking (`grpc.health.v1.Health`: Check, List and Watch), as load balancers,
 * Kubernetes probes and `grpc_health_probe` expect it. The status of the whole server is the
 * empty service name `""`; each served service has its own, by full name
 * (`acme.tasks.v1.TaskService`).
 */
import type { Message } from "@bufbuild/protobuf";
import { fileDesc, messageDesc, serviceDesc, type GenFile, type GenMessage, type GenService } from "@bufbuild/protobuf/codegenv2";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";

/** grpc/health/v1/health.proto of grpc/grpc-proto, without comments. */
const file_grpc_health_v1_health: GenFile = fileDesc(
  "ChtncnBjL2hlYWx0aC92MS9oZWFsdGgucHJvdG8SDmdycGMuaGVhbHRoLnYxIi4KEkhlYWx0aENoZWNrUmVxdWVzdBIYCgdzZXJ2aWNlGAEgASgJUgdzZXJ2aWNlIrEBChNIZWFsdGhDaGVja1Jlc3BvbnNlEkkKBnN0YXR1cxgBIAEoDjIxLmdycGMuaGVhbHRoLnYxLkhlYWx0aENoZWNrUmVzcG9uc2UuU2VydmluZ1N0YXR1c1IGc3RhdHVzIk8KDVNlcnZpbmdTdGF0dXMSCwoHVU5LTk9XThAAEgsKB1NFUlZJTkcQARIPCgtOT1RfU0VSVklORxACEhMKD1NFUlZJQ0VfVU5LTk9XThADIhMKEUhlYWx0aExpc3RSZXF1ZXN0IsQBChJIZWFsdGhMaXN0UmVzcG9uc2USTAoIc3RhdHVzZXMYASADKAsyMC5ncnBjLmhlYWx0aC52MS5IZWFsdGhMaXN0UmVzcG9uc2UuU3RhdHVzZXNFbnRyeVIIc3RhdHVzZXMaYAoNU3RhdHVzZXNFbnRyeRIQCgNrZXkYASABKAlSA2tleRI5CgV2YWx1ZRgCIAEoCzIjLmdycGMuaGVhbHRoLnYxLkhlYWx0aENoZWNrUmVzcG9uc2VSBXZhbHVlOgI4ATL9AQoGSGVhbHRoElAKBUNoZWNrEiIuZ3JwYy5oZWFsdGgudjEuSGVhbHRoQ2hlY2tSZXF1ZXN0GiMuZ3JwYy5oZWFsdGgudjEuSGVhbHRoQ2hlY2tSZXNwb25zZRJNCgRMaXN0EiEuZ3JwYy5oZWFsdGgudjEuSGVhbHRoTGlzdFJlcXVlc3QaIi5ncnBjLmhlYWx0aC52MS5IZWFsdGhMaXN0UmVzcG9uc2USUgoFV2F0Y2gSIi5ncnBjLmhlYWx0aC52MS5IZWFsdGhDaGVja1JlcXVlc3QaIy5ncnBjLmhlYWx0aC52MS5IZWFsdGhDaGVja1Jlc3BvbnNlMAFCcAoRaW8uZ3JwYy5oZWFsdGgudjFCC0hlYWx0aFByb3RvUAFaLGdvb2dsZS5nb2xhbmcub3JnL2dycGMvaGVhbHRoL2dycGNfaGVhbHRoX3YxogIMR3JwY0hlYWx0aFYxqgIOR3JwYy5IZWFsdGguVjFiBnByb3RvMw==",
);

/** `HealthCheckResponse.ServingStatus`. */
export enum ServingStatus {
  UNKNOWN = 0,
  SERVING = 1,
  NOT_SERVING = 2,
  /** Used only by Watch, for a service the server does not know. */
  SERVICE_UNKNOWN = 3,
}

type HealthCheckRequest = Message<"grpc.health.v1.HealthCheckRequest"> & { service: string };
type HealthCheckResponse = Message<"grpc.health.v1.HealthCheckResponse"> & { status: ServingStatus };
type HealthListRequest = Message<"grpc.health.v1.HealthListRequest">;
type HealthListResponse = Message<"grpc.health.v1.HealthListResponse"> & { statuses: { [service: string]: HealthCheckResponse } };

const HealthCheckRequestSchema: GenMessage<HealthCheckRequest> = messageDesc(file_grpc_health_v1_health, 0);
const HealthCheckResponseSchema: GenMessage<HealthCheckResponse> = messageDesc(file_grpc_health_v1_health, 1);
const HealthListRequestSchema: GenMessage<HealthListRequest> = messageDesc(file_grpc_health_v1_health, 2);
const HealthListResponseSchema: GenMessage<HealthListResponse> = messageDesc(file_grpc_health_v1_health, 3);

/** The `grpc.health.v1.Health` service. */
export const Health: GenService<{
  check: { methodKind: "unary"; input: typeof HealthCheckRequestSchema; output: typeof HealthCheckResponseSchema };
  list: { methodKind: "unary"; input: typeof HealthListRequestSchema; output: typeof HealthListResponseSchema };
  watch: { methodKind: "server_streaming"; input: typeof HealthCheckRequestSchema; output: typeof HealthCheckResponseSchema };
}> = serviceDesc(file_grpc_health_v1_health, 0);

/**
 * The serving status of the server (`""`) and of each service. Starts with every served service
 * SERVING; set a service NOT_SERVING while a dependency it needs is down, and watchers hear of it.
 */
export class HealthStatus {
  private readonly statuses = new Map<string, ServingStatus>();
  private readonly watchers = new Set<() => void>();

  /** @param services full names of the served services */
  constructor(services: readonly string[]) {
    this.statuses.set("", ServingStatus.SERVING);
    for (const service of services) this.statuses.set(service, ServingStatus.SERVING);
  }

  /** The status of `service` (`""`: the server), or undefined for a service it does not serve. */
  get(service: string): ServingStatus | undefined {
    return this.statuses.get(service);
  }

  set(service: string, status: ServingStatus): void {
    if (this.statuses.get(service) === status) return;
    this.statuses.set(service, status);
    for (const notify of this.watchers) notify();
  }

  /** Every service NOT_SERVING, as when the server shuts down. */
  shutdown(): void {
    for (const service of this.statuses.keys()) this.set(service, ServingStatus.NOT_SERVING);
  }

  /** Every known status, as List reports them. */
  entries(): IterableIterator<[string, ServingStatus]> {
    return this.statuses.entries();
  }

  /** Calls `notify` on every change until `signal` aborts. */
  subscribe(notify: () => void, signal: AbortSignal): void {
    this.watchers.add(notify);
    signal.addEventListener("abort", () => this.watchers.delete(notify), { once: true });
  }
}

/** The Health service over `status`: Check, List, and Watch (the current status, then each change). */
export function healthService(status: HealthStatus): ServiceImpl<typeof Health> {
  return {
    check(request) {
      const current = status.get(request.service);
      if (current === undefined) throw new ConnectError(`unknown service ${request.service}`, Code.NotFound);
      return { status: current };
    },
    list() {
      const statuses: { [service: string]: { status: ServingStatus } } = {};
      for (const [service, current] of status.entries()) statuses[service] = { status: current };
      return { statuses };
    },
    async *watch(request, context) {
      // `pending` catches a change made while this generator waits at `yield`.
      let pending = false;
      let wake: (() => void) | undefined;
      status.subscribe(() => {
        pending = true;
        wake?.();
      }, context.signal);
      const aborted = new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve(), { once: true }));
      let last: ServingStatus | undefined;
      while (!context.signal.aborted) {
        pending = false;
        const current = status.get(request.service) ?? ServingStatus.SERVICE_UNKNOWN;
        if (current !== last) {
          last = current;
          yield { status: current };
        }
        if (!pending) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
      }
    },
  };
}
