/**
 * What the server, the clients and the handler scaffold need to know of each service, decided
 * once: TypeScript names (the descriptor const and message types of the `_pb.ts` files, and our
 * own `TaskServiceHandlers`, `createTaskServiceClient`...), the module each name comes from, and
 * the comments of services and methods.
 */
import type { DescFile, DescMessage, DescMethod, DescService } from '@bufbuild/protobuf';
import { pascalCase, uniqueName } from '../core/builder/names.js';
import type { LoadedProto } from './load.js';
import { generatedFiles } from './messages.js';
import { messageTypeName, moduleSpecifier, schemaName, serviceConstName } from './names.js';

export type MethodKind = DescMethod['methodKind'];

/** A message type as server.ts or client.ts writes it, imported under `type` and `schema`. */
export interface MessageRef {
  type: string;
  schema: string;
}

export interface MethodInfo {
  desc: DescMethod;
  /** `getTask`: the handler and client method name. */
  name: string;
  kind: MethodKind;
  /** Comment lines of the rpc (leading, then trailing). */
  comment: string | undefined;
  input: MessageRef;
  output: MessageRef;
}

export interface ServiceInfo {
  desc: DescService;
  /** The descriptor const of the `_pb.ts` file, as imported here (`TaskService`). */
  descriptor: string;
  /** Key of the service in `createGrpcServer({ TaskService: handlers })`. */
  key: string;
  handlersType: string;
  clientType: string;
  webClientType: string;
  createClient: string;
  comment: string | undefined;
  methods: MethodInfo[];
}

/** One import statement: `import { A, type B as C } from "from"` (`typeOnly`: `import type`). */
export interface ImportGroup {
  from: string;
  typeOnly: boolean;
  names: string[];
}

/** What a file imports of the services: descriptors (values), and message types or schemas (types). */
export interface ImportNeeds {
  descriptors?: (service: ServiceInfo) => boolean;
  inputs?: 'type' | 'schema';
  outputs?: 'type' | 'schema';
  /** Only methods of these modes; default all. */
  kinds?: MethodKind[];
  /** Only these methods; default all. */
  methods?: (method: MethodInfo) => boolean;
}

export interface ServicesModel {
  services: ServiceInfo[];
  /** The import statements of a file at the output root, packages first, then by path. */
  imports: (needs: ImportNeeds) => ImportGroup[];
}

/** Names the generated files import from elsewhere or declare themselves, besides the services'. */
const RUNTIME_NAMES = ['MessageInitShape', 'createClient', 'CallOptions', 'Code', 'ConnectError', 'GrpcCallContext', 'GrpcConnection', 'GrpcServer', 'GrpcServerOptions', 'GrpcServices', 'MaybePromise', 'ServiceBinding', 'serveGrpc', 'createGrpcServer', 'handlers',
  // The clients' own: client.ts and client-web.ts declare or import these.
  'Clients', 'WebClients', 'createConnectClient', 'webClients', 'serviceClient', 'createNodeTransport', 'createGrpcWebTransport', 'createConnectWebTransport', 'GrpcNodeClientOptions', 'GrpcWebClientOptions', 'Transport',
  // client-rest.ts's own.
  'createRestClient', 'createRestConnection', 'RestCallOptions', 'RestClientOptions', 'RestClients', 'RestConnection'];

/** The services of the requested files (not of their imports), in file and declaration order. */
export function describeServices(proto: LoadedProto): ServicesModel {
  const taken = new Set<string>(RUNTIME_NAMES);
  const declared = proto.files.flatMap((name) => proto.registry.getFile(name)?.services ?? []);
  // Our own names first, so an imported message called `TaskServiceClient` is the one renamed.
  const keysTaken = new Set<string>();
  const keys = declared.map((service) => {
    const key = uniqueName(pascalCase(service.name), keysTaken);
    for (const suffix of ['Handlers', 'Client', 'WebClient', 'RestClient', 'HttpRules']) taken.add(`${key}${suffix}`);
    taken.add(`create${key}Client`);
    taken.add(`create${key}RestClient`);
    return key;
  });

  // Local name per imported symbol: the same name from two modules gets an alias.
  const locals = new Map<string, { from: string; name: string; local: string }>();
  const local = (from: string, name: string): string => {
    const key = `${from}\0${name}`;
    let entry = locals.get(key);
    if (!entry) {
      entry = { from, name, local: uniqueName(name, taken) };
      locals.set(key, entry);
    }
    return entry.local;
  };
  // server.ts and the clients sit at the output root.
  const generated = new Set(generatedFiles(proto).map((file) => file.proto.name));
  const moduleOf = (file: DescFile) => moduleSpecifier('server.ts', file, generated);
  const message = (desc: DescMessage): MessageRef => ({ type: local(moduleOf(desc.file), messageTypeName(desc)), schema: local(moduleOf(desc.file), schemaName(desc)) });

  const services = declared.map((service, i): ServiceInfo => {
    const key = keys[i];
    const locations = service.file.proto.sourceCodeInfo?.location;
    const index = service.file.services.indexOf(service);
    return {
      desc: service,
      descriptor: local(moduleOf(service.file), serviceConstName(service)),
      key,
      handlersType: `${key}Handlers`,
      clientType: `${key}Client`,
      webClientType: `${key}WebClient`,
      createClient: `create${key}Client`,
      comment: commentOf(locations, [6, index]),
      methods: service.methods.map((method, m) => ({
        desc: method,
        name: method.localName,
        kind: method.methodKind,
        comment: commentOf(locations, [6, index, 2, m]),
        input: message(method.input),
        output: message(method.output),
      })),
    };
  });

  return {
    services,
    imports(needs) {
      const values = new Set<string>();
      const types = new Set<string>();
      for (const service of services) {
        if (needs.descriptors?.(service)) values.add(service.descriptor);
        for (const method of service.methods) {
          if (needs.kinds && !needs.kinds.includes(method.kind)) continue;
          if (needs.methods && !needs.methods(method)) continue;
          if (needs.inputs) types.add(method.input[needs.inputs]);
          if (needs.outputs) types.add(method.output[needs.outputs]);
        }
      }
      const groups = new Map<string, { names: string[]; values: number }>();
      for (const entry of locals.values()) {
        const value = values.has(entry.local);
        if (!value && !types.has(entry.local)) continue;
        const group = groups.get(entry.from) ?? { names: [], values: 0 };
        const name = entry.local === entry.name ? entry.name : `${entry.name} as ${entry.local}`;
        group.names.push(value ? name : `type ${name}`);
        if (value) group.values++;
        groups.set(entry.from, group);
      }
      const sortKey = (from: string) => `${from.startsWith('.') ? 1 : 0}${from}`;
      return [...groups.entries()]
        .sort(([a], [b]) => (sortKey(a) < sortKey(b) ? -1 : 1))
        .map(([from, group]) => {
          const names = group.names.sort((a, b) => (a.replace(/^type /, '') < b.replace(/^type /, '') ? -1 : 1));
          return group.values === 0 ? { from, typeOnly: true, names: names.map((name) => name.slice('type '.length)) } : { from, typeOnly: false, names };
        });
    },
  };
}

/** Leading and trailing comments at `path` in `source_code_info`, without the `//` markers. */
function commentOf(locations: readonly { path: number[]; leadingComments?: string; trailingComments?: string }[] | undefined, path: number[]): string | undefined {
  const location = locations?.find((candidate) => candidate.path.length === path.length && candidate.path.every((part, i) => part === path[i]));
  const text = [location?.leadingComments, location?.trailingComments]
    .filter((part): part is string => !!part && part.trim() !== '')
    .map((part) => part.replace(/^ /gm, '').trimEnd())
    .join('\n');
  return text === '' ? undefined : text;
}
