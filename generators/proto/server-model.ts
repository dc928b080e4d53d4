/**
 * What the server, the clients and the handler scaffold need to know of each service, decided
 * once: the descriptor consts and message types of the `_pb.ts` modules as symbols (each file's
 * builder imports them where printed), our own names (`TaskServiceHandlers`,
 * `createTaskServiceClient`...), and the comments of services and methods.
 */
import type { DescMessage, DescMethod, DescService } from '@bufbuild/protobuf';
import { symbol, typeSymbol, type ImportSymbol } from '../core/builder/file.js';
import { pascalCase, uniqueName } from '../core/builder/names.js';
import type { LoadedProto } from './load.js';
import { generatedFiles } from './messages.js';
import { messageTypeName, pbModule, schemaName, serviceConstName } from './names.js';

export type MethodKind = DescMethod['methodKind'];

/** A message of a `_pb.ts` module as server.ts or a client uses it: its type, and its schema in type positions (`typeof TaskSchema`). */
export interface MessageRef {
  type: ImportSymbol;
  schema: ImportSymbol;
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
  /** The descriptor const of the `_pb.ts` module (`TaskService`), a value. */
  descriptor: ImportSymbol;
  /** Key of the service in `createGrpcServer({ TaskService: handlers })`. */
  key: string;
  handlersType: string;
  clientType: string;
  webClientType: string;
  createClient: string;
  comment: string | undefined;
  methods: MethodInfo[];
}

export interface ServicesModel {
  services: ServiceInfo[];
}

/** The services of the requested files (not of their imports), in file and declaration order. */
export function describeServices(proto: LoadedProto): ServicesModel {
  const declared = proto.files.flatMap((name) => proto.registry.getFile(name)?.services ?? []);
  const keysTaken = new Set<string>();
  const generated = new Set(generatedFiles(proto).map((file) => file.proto.name));
  const message = (desc: DescMessage): MessageRef => {
    const from = pbModule(desc.file, generated);
    return { type: typeSymbol(messageTypeName(desc), from), schema: typeSymbol(schemaName(desc), from) };
  };

  const services = declared.map((service): ServiceInfo => {
    const key = uniqueName(pascalCase(service.name), keysTaken);
    const locations = service.file.proto.sourceCodeInfo?.location;
    const index = service.file.services.indexOf(service);
    return {
      desc: service,
      descriptor: symbol(serviceConstName(service), pbModule(service.file, generated)),
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
  return { services };
}

/** Leading and trailing comments at `path` in `source_code_info`, without the `//` markers. */
function commentOf(
  locations: readonly { path: number[]; leadingComments?: string; trailingComments?: string }[] | undefined,
  path: number[],
): string | undefined {
  const location = locations?.find(
    (candidate) => candidate.path.length === path.length && candidate.path.every((part, i) => part === path[i]),
  );
  const text = [location?.leadingComments, location?.trailingComments]
    .map((part) => withoutDirectives(part ?? ''))
    .filter((part) => part.trim() !== '')
    .map((part) => part.replace(/^ /gm, '').trimEnd())
    .join('\n');
  return text === '' ? undefined : text;
}

/** A comment without its `codegen:` directive lines (topics.ts reads them): they are not documentation. */
function withoutDirectives(comment: string): string {
  return comment
    .split('\n')
    .filter((line) => !/^\s*codegen:/.test(line))
    .join('\n');
}
