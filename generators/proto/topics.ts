/**
 * The topics of a proto API's pub/sub (pubsub.ts): one per server- or bidi-streaming method,
 * carrying the method's response message, unless the rpc's leading comment says otherwise with a
 * directive line (a comment line, like buf's `buf:lint:ignore`, so no custom option import is
 * needed and protoc and every other plugin read the file unchanged):
 *
 * ```proto
 * // Changes to the tasks of one project, live.
 * // codegen:topic task-changes key=project_id
 * rpc WatchTasks(WatchTasksRequest) returns (stream TaskEvent);
 * ```
 *
 * - `codegen:topic <name>`: the topic's name instead of `<package>.<Service>/<Method>`; methods
 *   naming the same topic share it (one topic, published once, heard by the subscribers of each),
 *   so they must stream the same message and have the same key.
 * - `key=<field>[,<field>…]`: fields of the request message that narrow the topic (a project's
 *   changes): singular scalar or enum fields without explicit presence, typed as the request's
 *   (`Pick<WatchTasksRequest, "projectId">`), so a request is a key.
 * - `codegen:topic none`: no topic for the method (a listing rather than a live feed).
 *
 * Any other comment line starting with `codegen:` is an error located at it (file:line:col), and
 * so is one in the comment after an rpc, where it would not be read.
 */
import type { DescField, DescMethod } from '@bufbuild/protobuf';
import { ScalarType } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import { CodegenError, type Diagnostic, type SourceLocation } from '../core/diagnostics.js';
import type { LoadedProto } from './load.js';
import type { MethodInfo, ServiceInfo, ServicesModel } from './server-model.js';
import { streamsResponses } from './service-files.js';

/** One topic of the pub/sub, possibly shared by several methods. */
export interface TopicInfo {
  /** Its name on the fan-out: `acme.tasks.v1.TaskService/SyncTasks`, or the directive's. */
  name: string;
  /** The methods publishing and subscribing on it, in declaration order. */
  methods: { service: ServiceInfo; method: MethodInfo }[];
  /** The request fields that narrow it, in the order written; empty for none. */
  key: DescField[];
}

const DIRECTIVE = /^(\s*)(codegen:\S*)(.*)$/;
const TOPIC_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.\-/]*$/;

/** The topics of `model`'s streaming methods, in declaration order; throws every bad directive at once. */
export function describeTopics(model: ServicesModel, proto: LoadedProto): TopicInfo[] {
  const problems: Diagnostic[] = [];
  const topics = new Map<string, TopicInfo & { at: SourceLocation | undefined; method: DescMethod }>();
  for (const service of model.services) {
    for (const method of service.methods) {
      const directive = topicDirective(method.desc, proto, problems);
      if (!streamsResponses(method)) {
        if (directive)
          problems.push(
            located(
              directive.at,
              `codegen:topic on ${method.desc.name}, a ${method.kind.replace('_', ' ')} method: only server- and bidi-streaming methods have topics`,
              'remove the line',
            ),
          );
        continue;
      }
      if (directive?.name === 'none') continue;
      const name = directive?.name ?? `${service.desc.typeName}/${method.desc.name}`;
      const key = directive ? keyFields(method.desc, directive, problems) : [];
      const shared = topics.get(name);
      if (!shared) {
        topics.set(name, { name, methods: [{ service, method }], key, at: directive?.at, method: method.desc });
        continue;
      }
      const first = shared.method;
      if (first.output.typeName !== method.desc.output.typeName)
        problems.push(
          located(
            directive?.at,
            `topic "${name}" carries ${first.output.typeName} (${first.parent.name}.${first.name}), not ${method.desc.output.typeName}`,
            'methods share a topic only when they stream the same message; give this one its own topic name',
          ),
        );
      else if (keySignature(shared.key) !== keySignature(key))
        problems.push(
          located(
            directive?.at,
            `topic "${name}" has key (${keySignature(shared.key)}) at ${first.parent.name}.${first.name}, not (${keySignature(key)})`,
            'methods sharing a topic name the same key fields, of the same types',
          ),
        );
      else shared.methods.push({ service, method });
    }
  }
  if (problems.length > 0) throw new CodegenError(problems);
  return [...topics.values()].map(({ name, methods, key }) => ({ name, methods, key }));
}

interface Directive {
  name: string | undefined;
  key: { names: string[]; at: SourceLocation | undefined } | undefined;
  at: SourceLocation | undefined;
}

/** The `codegen:topic` line of an rpc's leading comment, checked; other `codegen:` lines are problems. */
function topicDirective(method: DescMethod, proto: LoadedProto, problems: Diagnostic[]): Directive | undefined {
  const file = method.parent.file;
  const path = [6, file.services.indexOf(method.parent), 2, method.parent.methods.indexOf(method)];
  const location = file.proto.sourceCodeInfo?.location.find(
    (candidate) => candidate.path.length === path.length && candidate.path.every((part, i) => part === path[i]),
  );
  const lines = (location?.leadingComments ?? '').replace(/\n$/, '').split('\n');
  // Read in the leading comment only: one elsewhere would be silently ignored (and left out of the docs).
  if ((location?.trailingComments ?? '').split('\n').some((line) => DIRECTIVE.test(line)) && location && location.span.length >= 2)
    problems.push(
      located(
        { file: proto.displayNames.get(file.proto.name) ?? file.proto.name, line: location.span[0]! + 1, column: location.span[1]! + 1 },
        `a codegen: line after ${method.name} is not read`,
        'write it in the comment right above the rpc',
      ),
    );
  let found: Directive | undefined;
  lines.forEach((line, index) => {
    const match = DIRECTIVE.exec(line);
    if (!match) return;
    // A `//` comment line sits right above the rpc, at its indentation: `//` then the text.
    const at = (offset: number): SourceLocation | undefined =>
      location && location.span.length >= 2
        ? {
            file: proto.displayNames.get(file.proto.name) ?? file.proto.name,
            line: location.span[0]! - lines.length + index + 1,
            column: location.span[1]! + 3 + offset,
          }
        : undefined;
    const [, space = '', word = '', rest = ''] = match;
    if (word !== 'codegen:topic') {
      problems.push(located(at(space.length), `unknown directive ${word}`, 'codegen reads `codegen:topic [<name>|none] [key=<field>,…]`'));
      return;
    }
    if (found) {
      problems.push(located(at(space.length), `a second codegen:topic line for ${method.name}`, 'write one line per rpc'));
      return;
    }
    const directive: Directive = { name: undefined, key: undefined, at: at(space.length) };
    let offset = space.length + word.length;
    for (const part of rest.split(/(\s+)/)) {
      const start = offset;
      offset += part.length;
      if (part.trim() === '') continue;
      if (part.startsWith('key=')) {
        if (directive.key) problems.push(located(at(start), 'key= is written twice', 'list every key field in one key=a,b'));
        directive.key = { names: part.slice(4).split(','), at: at(start) };
      } else if (directive.name === undefined && directive.key === undefined && TOPIC_NAME.test(part)) directive.name = part;
      else
        problems.push(
          located(
            at(start),
            `codegen:topic cannot read "${part}"`,
            'write `codegen:topic [<name>|none] [key=<field>,…]`; a name is letters, digits and _ . - /',
          ),
        );
    }
    if (directive.name === 'none' && directive.key)
      problems.push(located(directive.key.at, 'codegen:topic none takes no key', 'remove key=…, or name the topic'));
    found = directive;
  });
  return found;
}

/** The request fields `key=` names, checked: singular scalars or enums whose type a key part can hold. */
function keyFields(method: DescMethod, directive: Directive, problems: Diagnostic[]): DescField[] {
  if (!directive.key) return [];
  const fields: DescField[] = [];
  for (const name of directive.key.names) {
    const field = method.input.fields.find((candidate) => candidate.name === name);
    if (!field) {
      problems.push(
        located(
          directive.key.at,
          `${method.input.typeName} has no field "${name}" for the key of ${method.name}`,
          `key fields are fields of the request message: ${method.input.fields.map((each) => each.name).join(', ') || 'it has none'}`,
        ),
      );
      continue;
    }
    const why = unkeyable(field);
    if (why) {
      problems.push(
        located(directive.key.at, `${method.input.typeName}.${name} cannot be a key: ${why}`, 'key on a singular scalar or enum field'),
      );
      continue;
    }
    if (fields.includes(field)) problems.push(located(directive.key.at, `key field "${name}" is named twice`, 'name each field once'));
    else fields.push(field);
  }
  return fields;
}

function unkeyable(field: DescField): string | undefined {
  if (field.fieldKind === 'list' || field.fieldKind === 'map') return `it is a ${field.fieldKind === 'list' ? 'repeated field' : 'map'}`;
  if (field.fieldKind === 'message') return 'it is a message';
  if (field.oneof) return `it is in oneof ${field.oneof.name}`;
  if (field.presence === FeatureSet_FieldPresence.EXPLICIT) return 'it has explicit presence (it may be unset)';
  if (field.fieldKind === 'scalar' && field.scalar === ScalarType.BYTES) return 'it is bytes';
  return undefined;
}

/** `project_id: string, status: acme.tasks.v1.TaskStatus`: what two methods' keys must agree on. */
function keySignature(key: readonly DescField[]): string {
  return key
    .map(
      (field) =>
        `${field.name}: ${field.fieldKind === 'enum' ? field.enum.typeName : field.fieldKind === 'scalar' ? ScalarType[field.scalar] : field.fieldKind}`,
    )
    .join(', ');
}

function located(location: SourceLocation | undefined, message: string, hint: string): Diagnostic {
  return { severity: 'error', message, hint, ...(location ? { location } : {}) };
}
