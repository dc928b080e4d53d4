/** What `codegen init` writes: a config that explains itself. */
export const STARTER_CONFIG = `# codegen configuration. Run \`npx codegen\` to generate, \`npx codegen --check\` in CI.
apis:
  # One entry per API. Paths are relative to this file.
  - name: petstore
    # The schema: OpenAPI 3.0/3.1 (.yaml/.json). More styles (GraphQL, proto, AsyncAPI) follow.
    input: openapi.yaml
    # Generated files go here. The folder is codegen's: generated files in it that no longer
    # come from the schema are removed. Files you add there yourself are never touched.
    output: src/generated/petstore
    # What to generate: types, validators, client (server: coming).
    emit: [types, validators, client]
    # A folder whose .hbs files replace built-in templates of the same path,
    # e.g. openapi/client.ts.hbs. Leave it out to use the built-in ones.
    # templates: codegen-templates
`;
