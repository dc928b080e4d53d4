/**
 * Small OpenAPI documents for what schemas/openapi/tasks.yaml does not exercise: parameter
 * styles (form-exploded and pipe-delimited lists, deepObject, header lists, cookies, booleans with
 * defaults), a path segment mixing text and parameters, form and text bodies, no `servers`.
 */
export const STYLES_API = `openapi: 3.1.0
info:
  title: Styles API
  version: '1'
paths:
  /files/{name}.{ext}:
    get:
      operationId: getFile
      parameters:
        - { name: name, in: path, required: true, schema: { type: string } }
        - { name: ext, in: path, required: true, schema: { type: string, enum: [txt, md] } }
      responses:
        '200':
          description: The file's text.
          content:
            text/plain:
              schema: { type: string }
  /files/index:
    get:
      operationId: getIndex
      responses:
        '200':
          description: The literal route wins over the parameter one.
          content:
            text/plain:
              schema: { type: string }
  /search:
    get:
      operationId: search
      parameters:
        - { name: ids, in: query, schema: { type: array, items: { type: integer } } }
        - { name: tags, in: query, style: pipeDelimited, explode: false, schema: { type: array, items: { type: string } } }
        - { name: flag, in: query, schema: { type: boolean, default: false } }
        - name: range
          in: query
          style: deepObject
          schema:
            type: object
            properties:
              min: { type: number }
              max: { type: number, maximum: 100 }
        - { name: X-Ids, in: header, schema: { type: array, items: { type: integer } } }
        - { name: session, in: cookie, schema: { type: string } }
      responses:
        '200':
          description: The parsed request, echoed.
          content:
            application/json:
              schema: { type: object }
  /forms:
    post:
      operationId: submitForm
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [count]
              properties:
                count: { type: integer, minimum: 1 }
                tags: { type: array, items: { type: string } }
      responses:
        '200':
          description: The parsed form, echoed.
          content:
            application/json:
              schema: { type: object }
  /notes:
    put:
      operationId: putNote
      requestBody:
        content:
          text/plain:
            schema: { type: string }
      responses:
        '200':
          description: The note, shouted.
          content:
            text/plain:
              schema: { type: string }
`;

/** Typed handlers for STYLES_API (usage.ts of that folder). */
export const STYLES_USAGE_SOURCE = `import { createServer } from "./server.js";
import type { Listener, StylesApiHandlers } from "./server.js";

export const handlers: StylesApiHandlers = {
  getFile: ({ name, ext }) => ({ status: 200, body: name + " as " + ext }),
  getIndex: () => ({ status: 200, body: "index" }),
  search: (request) => ({ status: 200, body: { ...request } }),
  submitForm: ({ body }) => ({ status: 200, body: { ...body } }),
  putNote: ({ body }) => ({ status: 200, body: (body ?? "").toUpperCase() }),
};

export function listener(): Listener {
  return createServer(handlers, { onError: () => {} });
}
`;
