/**
 * What the TanStack Query options of a proto API (`query.ts`) need beside the client: a request as
 * a part of a query key.
 */
import { create, toJson, type DescMessage, type JsonValue, type Message, type MessageInitShape } from "@bufbuild/protobuf";

/**
 * `input` in proto3 JSON, as connect-query keys it: TanStack Query hashes keys with
 * `JSON.stringify`, which throws on the `bigint` of 64-bit fields and spells bytes as objects, and
 * one message may be written with or without its default values. Its JSON form is one string per
 * message.
 */
export function inputKey<Desc extends DescMessage>(schema: Desc, input: MessageInitShape<Desc>): JsonValue {
  return toJson(schema, create(schema, input));
}

/**
 * A request's init shape without the `Key` fields: what an infinite query takes, setting the page
 * token itself per page. (A message object is left out: `Omit` of the union would keep none of it.)
 * @public
 */
export type InitWithout<Init, Key extends PropertyKey> = Omit<Exclude<Init, Message>, Key>;
