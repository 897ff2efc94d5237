import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import RelayPlugin from "@pothos/plugin-relay";
import { GraphQLError, Kind, valueFromASTUntyped, type ValueNode } from "graphql";
import { isJsonObject, type JsonObject } from "../domain/json.js";
import type { GraphqlContext } from "./context.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./pagination.js";

/**
 * The one SchemaBuilder. Modules under modules/ define every type and root field; this file
 * only wires plugins, scalars, the empty root types and the `totalCount` every connection has.
 */
export const builder = new SchemaBuilder<{
  Context: GraphqlContext;
  // Fields are non-null unless a module says otherwise: most of our fields always have a value.
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Scalars: {
    // Our ids are UUID strings (or graph names); never numbers.
    ID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    JSONObject: { Input: JsonObject; Output: JsonObject };
  };
  // A thunk so that totalCount costs a COUNT query only when a client selects it.
  Connection: { totalCount: () => Promise<number> | number };
}>({
  plugins: [RelayPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    firstArgOptions: { description: `Page size: default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}.` },
    lastArgOptions: { description: `Page size counting back from \`before\` (or the end); at most ${MAX_PAGE_SIZE}.` },
    edgesFieldOptions: { nullable: false },
    nodeFieldOptions: { nullable: false },
  },
});

builder.queryType({});
builder.mutationType({});

builder.globalConnectionField("totalCount", (t) =>
  t.int({
    description: "Items matching the connection's filters, ignoring pagination.",
    resolve: (connection) => connection.totalCount(),
  }),
);

builder.scalarType("DateTime", {
  description: "An instant as an ISO 8601 string with offset, e.g. 2025-01-31T12:00:00.000Z.",
  serialize: (value) => toDate(value).toISOString(),
  parseValue: (value) => toDate(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError("DateTime literals must be ISO 8601 strings");
    return toDate(ast.value);
  },
});

builder.scalarType("JSON", {
  description: "Any JSON value.",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables ?? undefined),
});

builder.scalarType("JSONObject", {
  description: "A JSON object (never an array, string or null).",
  serialize: (value) => requireJsonObject(value),
  parseValue: (value) => requireJsonObject(value),
  parseLiteral: (ast: ValueNode, variables) => requireJsonObject(valueFromASTUntyped(ast, variables ?? undefined)),
});

function toDate(value: unknown): Date {
  const date = value instanceof Date ? value : typeof value === "string" ? new Date(value) : null;
  if (date === null || Number.isNaN(date.getTime())) {
    throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value)}: expected an ISO 8601 string`);
  }
  return date;
}

function requireJsonObject(value: unknown): JsonObject {
  if (!isJsonObject(value)) throw new GraphQLError(`JSONObject cannot represent ${JSON.stringify(value)}`);
  return value;
}
