/**
 * Every built-in template has a typed, documented context (generators/<style>/template-context.ts),
 * and the README lists exactly those templates and contexts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import {
  builtinTemplates,
  README_TEMPLATES_BEGIN,
  README_TEMPLATES_END,
  templateDocs,
  templatesMarkdown,
} from './support/template-docs.js';

describe('template contexts', () => {
  const docs = templateDocs();

  it('one documented context per built-in template, and none for a template that does not exist', () => {
    expect(docs.map((doc) => doc.template)).toEqual(builtinTemplates());
    for (const doc of docs) {
      expect(doc.description, `${doc.context} has no JSDoc`).not.toBe('');
      for (const field of doc.fields) expect(field.description, `${doc.context}.${field.name} has no JSDoc`).not.toBe('');
    }
  });

  it('README lists exactly what the declarations say', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const begin = readme.indexOf(README_TEMPLATES_BEGIN);
    const end = readme.indexOf(README_TEMPLATES_END);
    expect(begin, 'README.md has no templates section').toBeGreaterThan(-1);
    // On failure, paste templatesMarkdown()'s text (the expected value below) over the README's section.
    expect(readme.slice(begin, end + README_TEMPLATES_END.length)).toBe(templatesMarkdown(docs));
  });
});
