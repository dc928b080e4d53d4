/**
 * The service side of a proto API, for the requested files that declare services: `server.ts`,
 * `client.ts`, `client-web.ts`, `query.ts` (TanStack Query options, with the clients), the user's handler file (config `handlers`), and for methods with
 * `google.api.http` rules `http-rules.ts` and `client-rest.ts`. Files without services get none of
 * these. The `runtime/grpc-*.ts` modules they import are added by the pipeline, from their imports.
 */
import type { ApiConfig } from '../core/config/config.js';
import type { Generated } from '../core/pipeline/generator.js';
import { displayPath } from '../core/pipeline/paths.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import { emitClients } from './client.js';
import { handlerScaffold } from './handlers.js';
import { emitQuery } from './query.js';
import type { LoadedProto } from './load.js';
import { describeRest, emitRest } from './rest.js';
import { describeServices } from './server-model.js';
import { emitPubSub } from './pubsub.js';
import { emitServer } from './server.js';
import { describeTopics } from './topics.js';

export async function emitServices(
  proto: LoadedProto,
  templates: TemplateRenderer,
  api: ApiConfig,
  options: { redis: boolean },
): Promise<Required<Pick<Generated, 'files' | 'userFiles'>>> {
  const model = describeServices(proto);
  if (model.services.length === 0) return { files: [], userFiles: [] };
  const source = api.inputs.map((input) => displayPath(input, api.root)).join(', ');
  const emit = api.emit;
  const rest = describeRest(proto, model);
  const server = emit.includes('server');
  // Checked whatever is emitted, so a bad `codegen:topic` line fails every run alike.
  const topics = describeTopics(model, proto);
  // The query options call the clients of client-web.ts: asking for them also writes the clients.
  const client = emit.includes('client') || emit.includes('query');
  const files = [
    ...(server ? emitServer(model, templates, source, rest, options) : []),
    ...(server ? emitPubSub(model, topics, templates, source) : []),
    ...(client ? emitClients(model, templates, source) : []),
    ...(emit.includes('query') ? [emitQuery(model, templates, source, api.name)] : []),
    ...emitRest(rest, templates, source, { server, client }),
  ];
  const userFiles = emit.includes('server') && api.handlers ? [await handlerScaffold(model, templates, api.handlers, api.output)] : [];
  return { files, userFiles };
}
