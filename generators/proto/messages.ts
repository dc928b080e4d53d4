/** Placeholder: message and service descriptors per `.proto` file (being written). */
import type { GeneratedFile } from '../core/output.js';
import type { TemplateRenderer } from '../core/templates.js';
import type { LoadedProto } from './load.js';

export function emitMessages(_proto: LoadedProto, _templates: TemplateRenderer): GeneratedFile[] {
  return [];
}
