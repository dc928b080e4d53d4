/**
 * gRPC server reflection (`grpc.reflection.v1.ServerReflection`, and `grpc.reflection.v1alpha`,
 * which older tools still ask for), so grpcurl, grpcui, Postman and other clients can list the
 * services and fetch their schema at run time. The schema is the file descriptors the generated
 * `_pb.ts` files embed: each served service's file and its imports, plus health and reflection.
 * Answers follow grpc-go's reference implementation: a requested file comes with its transitive
 * imports (breadth first), leaving out the imports this stream already received; what is not
 * known gets an `error_response` with NOT_FOUND and the stream goes on.
 */
import {
  toBinary,
  type DescEnum,
  type DescExtension,
  type DescFile,
  type DescMessage,
  type DescService,
  type Message,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import { fileDesc, serviceDesc, type GenFile, type GenMessage, type GenService } from "@bufbuild/protobuf/codegenv2";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";

/** grpc/reflection/v1/reflection.proto of grpc/grpc-proto, embedded as protoc-gen-es does. */
const file_grpc_reflection_v1_reflection: GenFile = fileDesc(
  "CiNncnBjL3JlZmxlY3Rpb24vdjEvcmVmbGVjdGlvbi5wcm90bxISZ3JwYy5yZWZsZWN0aW9uLnYxIoUCChdTZXJ2ZXJSZWZsZWN0aW9uUmVxdWVzdBIMCgRob3N0GAEgASgJEhoKEGZpbGVfYnlfZmlsZW5hbWUYAyABKAlIABIgChZmaWxlX2NvbnRhaW5pbmdfc3ltYm9sGAQgASgJSAASSQoZZmlsZV9jb250YWluaW5nX2V4dGVuc2lvbhgFIAEoCzIkLmdycGMucmVmbGVjdGlvbi52MS5FeHRlbnNpb25SZXF1ZXN0SAASJwodYWxsX2V4dGVuc2lvbl9udW1iZXJzX29mX3R5cGUYBiABKAlIABIXCg1saXN0X3NlcnZpY2VzGAcgASgJSABCEQoPbWVzc2FnZV9yZXF1ZXN0IkUKEEV4dGVuc2lvblJlcXVlc3QSFwoPY29udGFpbmluZ190eXBlGAEgASgJEhgKEGV4dGVuc2lvbl9udW1iZXIYAiABKAUiuAMKGFNlcnZlclJlZmxlY3Rpb25SZXNwb25zZRISCgp2YWxpZF9ob3N0GAEgASgJEkUKEG9yaWdpbmFsX3JlcXVlc3QYAiABKAsyKy5ncnBjLnJlZmxlY3Rpb24udjEuU2VydmVyUmVmbGVjdGlvblJlcXVlc3QSTgoYZmlsZV9kZXNjcmlwdG9yX3Jlc3BvbnNlGAQgASgLMiouZ3JwYy5yZWZsZWN0aW9uLnYxLkZpbGVEZXNjcmlwdG9yUmVzcG9uc2VIABJVCh5hbGxfZXh0ZW5zaW9uX251bWJlcnNfcmVzcG9uc2UYBSABKAsyKy5ncnBjLnJlZmxlY3Rpb24udjEuRXh0ZW5zaW9uTnVtYmVyUmVzcG9uc2VIABJJChZsaXN0X3NlcnZpY2VzX3Jlc3BvbnNlGAYgASgLMicuZ3JwYy5yZWZsZWN0aW9uLnYxLkxpc3RTZXJ2aWNlUmVzcG9uc2VIABI7Cg5lcnJvcl9yZXNwb25zZRgHIAEoCzIhLmdycGMucmVmbGVjdGlvbi52MS5FcnJvclJlc3BvbnNlSABCEgoQbWVzc2FnZV9yZXNwb25zZSI3ChZGaWxlRGVzY3JpcHRvclJlc3BvbnNlEh0KFWZpbGVfZGVzY3JpcHRvcl9wcm90bxgBIAMoDCJLChdFeHRlbnNpb25OdW1iZXJSZXNwb25zZRIWCg5iYXNlX3R5cGVfbmFtZRgBIAEoCRIYChBleHRlbnNpb25fbnVtYmVyGAIgAygFIksKE0xpc3RTZXJ2aWNlUmVzcG9uc2USNAoHc2VydmljZRgBIAMoCzIjLmdycGMucmVmbGVjdGlvbi52MS5TZXJ2aWNlUmVzcG9uc2UiHwoPU2VydmljZVJlc3BvbnNlEgwKBG5hbWUYASABKAkiOgoNRXJyb3JSZXNwb25zZRISCgplcnJvcl9jb2RlGAEgASgFEhUKDWVycm9yX21lc3NhZ2UYAiABKAkyiQEKEFNlcnZlclJlZmxlY3Rpb24SdQoUU2VydmVyUmVmbGVjdGlvbkluZm8SKy5ncnBjLnJlZmxlY3Rpb24udjEuU2VydmVyUmVmbGVjdGlvblJlcXVlc3QaLC5ncnBjLnJlZmxlY3Rpb24udjEuU2VydmVyUmVmbGVjdGlvblJlc3BvbnNlKAEwAUJmChVpby5ncnBjLnJlZmxlY3Rpb24udjFCFVNlcnZlclJlZmxlY3Rpb25Qcm90b1ABWjRnb29nbGUuZ29sYW5nLm9yZy9ncnBjL3JlZmxlY3Rpb24vZ3JwY19yZWZsZWN0aW9uX3YxYgZwcm90bzM",
);

/** grpc/reflection/v1alpha/reflection.proto: the same messages in the deprecated package. */
const file_grpc_reflection_v1alpha_reflection: GenFile = fileDesc(
  "CihncnBjL3JlZmxlY3Rpb24vdjFhbHBoYS9yZWZsZWN0aW9uLnByb3RvEhdncnBjLnJlZmxlY3Rpb24udjFhbHBoYSKKAgoXU2VydmVyUmVmbGVjdGlvblJlcXVlc3QSDAoEaG9zdBgBIAEoCRIaChBmaWxlX2J5X2ZpbGVuYW1lGAMgASgJSAASIAoWZmlsZV9jb250YWluaW5nX3N5bWJvbBgEIAEoCUgAEk4KGWZpbGVfY29udGFpbmluZ19leHRlbnNpb24YBSABKAsyKS5ncnBjLnJlZmxlY3Rpb24udjFhbHBoYS5FeHRlbnNpb25SZXF1ZXN0SAASJwodYWxsX2V4dGVuc2lvbl9udW1iZXJzX29mX3R5cGUYBiABKAlIABIXCg1saXN0X3NlcnZpY2VzGAcgASgJSABCEQoPbWVzc2FnZV9yZXF1ZXN0IkUKEEV4dGVuc2lvblJlcXVlc3QSFwoPY29udGFpbmluZ190eXBlGAEgASgJEhgKEGV4dGVuc2lvbl9udW1iZXIYAiABKAUi0QMKGFNlcnZlclJlZmxlY3Rpb25SZXNwb25zZRISCgp2YWxpZF9ob3N0GAEgASgJEkoKEG9yaWdpbmFsX3JlcXVlc3QYAiABKAsyMC5ncnBjLnJlZmxlY3Rpb24udjFhbHBoYS5TZXJ2ZXJSZWZsZWN0aW9uUmVxdWVzdBJTChhmaWxlX2Rlc2NyaXB0b3JfcmVzcG9uc2UYBCABKAsyLy5ncnBjLnJlZmxlY3Rpb24udjFhbHBoYS5GaWxlRGVzY3JpcHRvclJlc3BvbnNlSAASWgoeYWxsX2V4dGVuc2lvbl9udW1iZXJzX3Jlc3BvbnNlGAUgASgLMjAuZ3JwYy5yZWZsZWN0aW9uLnYxYWxwaGEuRXh0ZW5zaW9uTnVtYmVyUmVzcG9uc2VIABJOChZsaXN0X3NlcnZpY2VzX3Jlc3BvbnNlGAYgASgLMiwuZ3JwYy5yZWZsZWN0aW9uLnYxYWxwaGEuTGlzdFNlcnZpY2VSZXNwb25zZUgAEkAKDmVycm9yX3Jlc3BvbnNlGAcgASgLMiYuZ3JwYy5yZWZsZWN0aW9uLnYxYWxwaGEuRXJyb3JSZXNwb25zZUgAQhIKEG1lc3NhZ2VfcmVzcG9uc2UiNwoWRmlsZURlc2NyaXB0b3JSZXNwb25zZRIdChVmaWxlX2Rlc2NyaXB0b3JfcHJvdG8YASADKAwiSwoXRXh0ZW5zaW9uTnVtYmVyUmVzcG9uc2USFgoOYmFzZV90eXBlX25hbWUYASABKAkSGAoQZXh0ZW5zaW9uX251bWJlchgCIAMoBSJQChNMaXN0U2VydmljZVJlc3BvbnNlEjkKB3NlcnZpY2UYASADKAsyKC5ncnBjLnJlZmxlY3Rpb24udjFhbHBoYS5TZXJ2aWNlUmVzcG9uc2UiHwoPU2VydmljZVJlc3BvbnNlEgwKBG5hbWUYASABKAkiOgoNRXJyb3JSZXNwb25zZRISCgplcnJvcl9jb2RlGAEgASgFEhUKDWVycm9yX21lc3NhZ2UYAiABKAkykwEKEFNlcnZlclJlZmxlY3Rpb24SfwoUU2VydmVyUmVmbGVjdGlvbkluZm8SMC5ncnBjLnJlZmxlY3Rpb24udjFhbHBoYS5TZXJ2ZXJSZWZsZWN0aW9uUmVxdWVzdBoxLmdycGMucmVmbGVjdGlvbi52MWFscGhhLlNlcnZlclJlZmxlY3Rpb25SZXNwb25zZSgBMAFCcwoaaW8uZ3JwYy5yZWZsZWN0aW9uLnYxYWxwaGFCFVNlcnZlclJlZmxlY3Rpb25Qcm90b1ABWjlnb29nbGUuZ29sYW5nLm9yZy9ncnBjL3JlZmxlY3Rpb24vZ3JwY19yZWZsZWN0aW9uX3YxYWxwaGG4AQFiBnByb3RvMw",
);

// Both versions have the same fields, so one shape types both (`$typeName` tells them apart).

type ExtensionRequest = Message & { containingType: string; extensionNumber: number };

type ReflectionRequest = Message & {
  host: string;
  messageRequest:
    | { case: "fileByFilename"; value: string }
    | { case: "fileContainingSymbol"; value: string }
    | { case: "fileContainingExtension"; value: ExtensionRequest }
    | { case: "allExtensionNumbersOfType"; value: string }
    | { case: "listServices"; value: string }
    | { case: undefined; value?: undefined };
};

type ReflectionResponse = Message & {
  validHost: string;
  originalRequest?: ReflectionRequest | undefined;
  messageResponse:
    | { case: "fileDescriptorResponse"; value: Message & { fileDescriptorProto: Uint8Array[] } }
    | { case: "allExtensionNumbersResponse"; value: Message & { baseTypeName: string; extensionNumber: number[] } }
    | { case: "listServicesResponse"; value: Message & { service: (Message & { name: string })[] } }
    | { case: "errorResponse"; value: Message & { errorCode: number; errorMessage: string } }
    | { case: undefined; value?: undefined };
};

/** One request's answer as an init object, which `create` completes with its version's schema. */
type ReflectionAnswer = NonNullable<Exclude<MessageInitShape<GenMessage<ReflectionResponse>>, ReflectionResponse>["messageResponse"]>;

type ReflectionServiceDesc = GenService<{
  serverReflectionInfo: { methodKind: "bidi_streaming"; input: GenMessage<ReflectionRequest>; output: GenMessage<ReflectionResponse> };
}>;

/** `grpc.reflection.v1.ServerReflection`. */
export const ServerReflectionV1: ReflectionServiceDesc = serviceDesc(file_grpc_reflection_v1_reflection, 0);
/** `grpc.reflection.v1alpha.ServerReflection`. */
export const ServerReflectionV1Alpha: ReflectionServiceDesc = serviceDesc(file_grpc_reflection_v1alpha_reflection, 0);

/**
 * What reflection can tell about a set of services: their files and every file those import, by
 * name, by the symbols they declare, and by the extensions they define. Built once, on first use.
 */
export class ReflectionIndex {
  private readonly services: readonly DescService[];
  private built:
    | { files: Map<string, DescFile>; symbols: Map<string, DescFile>; extensions: Map<string, Map<number, DescFile>> }
    | undefined;
  private readonly encoded = new Map<DescFile, Uint8Array>();

  /** @param services every service the server answers, reflection's own included */
  constructor(services: readonly DescService[]) {
    this.services = services;
  }

  /** Full names of the services, sorted, as `list_services` reports them. */
  serviceNames(): string[] {
    return this.services.map((service) => service.typeName).sort();
  }

  fileByName(name: string): DescFile | undefined {
    return this.index().files.get(name);
  }

  /** The file declaring `symbol`: a message, enum, value, field, oneof, service, method... */
  fileContaining(symbol: string): DescFile | undefined {
    return this.index().symbols.get(symbol.startsWith(".") ? symbol.slice(1) : symbol);
  }

  fileContainingExtension(extendee: string, number: number): DescFile | undefined {
    return this.index().extensions.get(extendee)?.get(number);
  }

  /** Numbers of the known extensions of `typeName`, ascending; undefined for an unknown message. */
  extensionNumbers(typeName: string): number[] | undefined {
    const { symbols, extensions } = this.index();
    const numbers = [...(extensions.get(typeName)?.keys() ?? [])].sort((a, b) => a - b);
    return numbers.length > 0 || symbols.has(typeName) ? numbers : undefined;
  }

  /** `file` as a serialized `FileDescriptorProto`, encoded once. */
  encode(file: DescFile): Uint8Array {
    let bytes = this.encoded.get(file);
    if (bytes === undefined) {
      bytes = toBinary(FileDescriptorProtoSchema, file.proto);
      this.encoded.set(file, bytes);
    }
    return bytes;
  }

  private index() {
    if (this.built !== undefined) return this.built;
    const built = {
      files: new Map<string, DescFile>(),
      symbols: new Map<string, DescFile>(),
      extensions: new Map<string, Map<number, DescFile>>(),
    };
    const pending = this.services.map((service) => service.file);
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      if (built.files.has(file.proto.name)) continue;
      built.files.set(file.proto.name, file);
      pending.push(...file.dependencies);
      indexFile(file, built.symbols, built.extensions);
    }
    this.built = built;
    return built;
  }
}

/** The symbols and extensions `file` declares. The first file to declare a name keeps it. */
function indexFile(file: DescFile, symbols: Map<string, DescFile>, extensions: Map<string, Map<number, DescFile>>): void {
  const add = (name: string) => {
    if (!symbols.has(name)) symbols.set(name, file);
  };
  const addEnum = (desc: DescEnum, scope: string) => {
    add(desc.typeName);
    // Enum values are their enum's siblings in protobuf: `pkg.TODO`, not `pkg.Status.TODO`.
    for (const value of desc.values) add(scope === "" ? value.name : `${scope}.${value.name}`);
  };
  const addMessage = (desc: DescMessage) => {
    add(desc.typeName);
    for (const field of desc.fields) add(`${desc.typeName}.${field.name}`);
    for (const oneof of desc.oneofs) add(`${desc.typeName}.${oneof.name}`);
    for (const nested of desc.nestedMessages) addMessage(nested);
    for (const nested of desc.nestedEnums) addEnum(nested, desc.typeName);
    for (const extension of desc.nestedExtensions) addExtension(extension);
  };
  const addExtension = (desc: DescExtension) => {
    add(desc.typeName);
    let numbers = extensions.get(desc.extendee.typeName);
    if (numbers === undefined) extensions.set(desc.extendee.typeName, (numbers = new Map()));
    if (!numbers.has(desc.number)) numbers.set(desc.number, file);
  };
  const scope = file.proto.package;
  for (const desc of file.messages) addMessage(desc);
  for (const desc of file.enums) addEnum(desc, scope);
  for (const desc of file.extensions) addExtension(desc);
  for (const service of file.services) {
    add(service.typeName);
    for (const method of service.methods) add(`${service.typeName}.${method.name}`);
  }
}

/**
 * The reflection service over `index`, for either version. Each stream remembers which files it
 * sent, so a client asking for many symbols on one stream (as grpcurl does) gets each import once.
 */
export function reflectionService(index: ReflectionIndex): ServiceImpl<ReflectionServiceDesc> {
  return {
    async *serverReflectionInfo(requests) {
      const sent = new Set<string>();
      for await (const request of requests) {
        yield { validHost: request.host, originalRequest: request, messageResponse: answer(index, request, sent) };
      }
    },
  };
}

function answer(index: ReflectionIndex, request: ReflectionRequest, sent: Set<string>): ReflectionAnswer {
  const { messageRequest } = request;
  switch (messageRequest.case) {
    case "fileByFilename":
      return files(index, index.fileByName(messageRequest.value), sent) ?? notFound(`file "${messageRequest.value}" not found`);
    case "fileContainingSymbol":
      return files(index, index.fileContaining(messageRequest.value), sent) ?? notFound(`symbol "${messageRequest.value}" not found`);
    case "fileContainingExtension": {
      const { containingType, extensionNumber } = messageRequest.value;
      return (
        files(index, index.fileContainingExtension(containingType, extensionNumber), sent) ??
        notFound(`extension ${extensionNumber} of "${containingType}" not found`)
      );
    }
    case "allExtensionNumbersOfType": {
      const numbers = index.extensionNumbers(messageRequest.value);
      if (numbers === undefined) return notFound(`message type "${messageRequest.value}" not found`);
      return { case: "allExtensionNumbersResponse", value: { baseTypeName: messageRequest.value, extensionNumber: numbers } };
    }
    case "listServices":
      return { case: "listServicesResponse", value: { service: index.serviceNames().map((name) => ({ name })) } };
    case undefined:
      // As grpc-go: a request that asks nothing ends the stream.
      throw new ConnectError("the reflection request sets none of its message_request fields", Code.InvalidArgument);
  }
}

/**
 * `file` first, then its imports breadth first, as grpc-go sends them; imports this stream has
 * already sent are left out (the client has them), while the requested file always comes.
 */
function files(index: ReflectionIndex, file: DescFile | undefined, sent: Set<string>): ReflectionAnswer | undefined {
  if (file === undefined) return undefined;
  const out: Uint8Array[] = [index.encode(file)];
  sent.add(file.proto.name);
  const queue = [...file.dependencies];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (sent.has(next.proto.name)) continue;
    sent.add(next.proto.name);
    out.push(index.encode(next));
    queue.push(...next.dependencies);
  }
  return { case: "fileDescriptorResponse", value: { fileDescriptorProto: out } };
}

function notFound(message: string): ReflectionAnswer {
  return { case: "errorResponse", value: { errorCode: Code.NotFound, errorMessage: message } };
}
