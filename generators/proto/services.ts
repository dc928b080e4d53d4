/** Placeholder: server, clients and handler scaffold for the services (being written). */
import type { ApiConfig } from '../core/config.js';
import type { Generated } from '../core/generate.js';
import type { TemplateRenderer } from '../core/templates.js';
import type { LoadedProto } from './load.js';

export async function emitServices(_proto: LoadedProto, _templates: TemplateRenderer, _api: ApiConfig): Promise<Required<Pick<Generated, 'files' | 'userFiles'>>> {
  return { files: [], userFiles: [] };
}
