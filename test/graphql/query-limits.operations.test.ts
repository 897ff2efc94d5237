import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { MaxTokensParserWLexer } from "@escape.tech/graphql-armor-max-tokens";
import {
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  parse,
  print,
  typeFromAST,
  validate,
  type DocumentNode,
  type GraphQLInputType,
  type OperationDefinitionNode,
} from "graphql";
import { describe, expect, it } from "vitest";
import { GRAPHQL_LIMIT_DEFAULTS } from "../../src/config.js";
import { operationCost } from "../../src/graphql/query-cost.js";
import { schema } from "../../src/graphql/schema.js";
import * as consoleOperations from "../../web/src/generated/graphql.js";
import * as testOperations from "./generated/graphql.js";

/**
 * Every operation the console (web/src/graphql) and the tests (test/graphql/operations) send, and
 * GraphiQL's introspection, measured by the same GraphQL Armor rules and cost function the server
 * runs: each must stay within HALF of each default limit, so the defaults leave room for the
 * console to grow. Page-size variables are given their largest value (100), the worst case.
 */

interface Measures {
  tokens: number;
  depth: number;
  aliases: number;
  directives: number;
  cost: number;
}

const documents: Array<[name: string, text: string]> = [
  ...Object.entries(consoleOperations)
    .filter(([name]) => name.endsWith("Document"))
    .map(([name, document]): [string, string] => [`web ${name}`, String(document)]),
  ...Object.entries(testOperations)
    .filter(([name]) => name.endsWith("Document"))
    .map(([name, document]): [string, string] => [`test ${name}`, print(document as DocumentNode)]),
  ["GraphiQL introspection", getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, schemaDescription: true, specifiedByUrl: true, directiveIsRepeatable: true })],
];

function measure(text: string): Measures {
  let tokens = 0;
  const parser = new MaxTokensParserWLexer(text, { n: Number.MAX_SAFE_INTEGER, onAccept: [(_context, { n }: { n: number }) => (tokens = n)] });
  const document = parser.parseDocument();
  const counted = { depth: 0, aliases: 0, directives: 0 };
  const keep = (key: keyof typeof counted) => [(_context: unknown, { n }: { n: number }) => (counted[key] = Math.max(counted[key], n))];
  const errors = validate(schema, document, [
    maxDepthRule({ n: Number.MAX_SAFE_INTEGER, flattenFragments: true, onAccept: keep("depth") }),
    maxAliasesRule({ n: Number.MAX_SAFE_INTEGER, onAccept: keep("aliases") }),
    maxDirectivesRule({ n: Number.MAX_SAFE_INTEGER, onAccept: keep("directives") }),
  ]);
  expect(errors).toEqual([]);
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const cost = Math.max(...operations.map((operation) => operationCost(schema, document, worstCaseVariables(operation), operation.name?.value)));
  return { tokens, ...counted, cost };
}

/** Values for an operation's variables: page sizes at their maximum, the rest any valid value. */
function worstCaseVariables(operation: OperationDefinitionNode): Record<string, unknown> {
  return Object.fromEntries(
    (operation.variableDefinitions ?? []).map((definition) => {
      const type = typeFromAST(schema, definition.type as never) as GraphQLInputType;
      return [definition.variable.name.value, valueOf(type, definition.variable.name.value)];
    }),
  );
}

function valueOf(type: GraphQLInputType, name: string): unknown {
  if (isNonNullType(type)) return valueOf(type.ofType, name);
  if (isListType(type)) return [valueOf(type.ofType, name)];
  const named = getNamedType(type);
  if (isEnumType(named)) return named.getValues()[0]!.name;
  if (isInputObjectType(named)) {
    const required = Object.values(named.getFields()).filter((field) => isNonNullType(field.type));
    return Object.fromEntries(required.map((field) => [field.name, valueOf(field.type, field.name)]));
  }
  if (named.name === "Int") return /^(first|last|limit)$/.test(name) ? 100 : 1;
  if (named.name === "Float") return 1;
  if (named.name === "Boolean") return true;
  if (named.name === "JSON" || named.name === "JSONObject") return {};
  if (named.name === "DateTime") return new Date(0).toISOString();
  return "x";
}

describe("the default GraphQL limits", () => {
  const measured = documents.map(([name, text]) => ({ name, ...measure(text) }));

  it("were measured on every console and test operation", () => {
    expect(measured.filter(({ name }) => name.startsWith("web ")).length).toBeGreaterThanOrEqual(30);
    expect(measured.filter(({ name }) => name.startsWith("test ")).length).toBeGreaterThanOrEqual(50);
  });

  const limitOf: Record<keyof Measures, number> = {
    tokens: GRAPHQL_LIMIT_DEFAULTS.maxTokens,
    depth: GRAPHQL_LIMIT_DEFAULTS.maxDepth,
    aliases: GRAPHQL_LIMIT_DEFAULTS.maxAliases,
    directives: GRAPHQL_LIMIT_DEFAULTS.maxDirectives,
    cost: GRAPHQL_LIMIT_DEFAULTS.maxCost,
  };
  for (const key of Object.keys(limitOf) as Array<keyof Measures>) {
    it(`leave room: every operation's ${key} is at most half of ${limitOf[key]}`, () => {
      const largest = measured.reduce((top, entry) => (entry[key] > top[key] ? entry : top));
      expect(largest[key] * 2, `${largest.name}: ${key} ${largest[key]}`).toBeLessThanOrEqual(limitOf[key]);
    });
  }
});

describe("operationCost", () => {
  const cost = (query: string, variables: Record<string, unknown> = {}) => operationCost(schema, parse(query), variables, undefined);

  it("multiplies a page's selection by first or last, up to the largest page", () => {
    expect(cost("{ threads(first: 10) { edges { node { threadId } } } }")).toBe(1 + 10 * 3);
    expect(cost("{ threads(last: 7) { totalCount } }")).toBe(1 + 7 * 1);
    expect(cost("query ($n: Int) { threads(first: $n) { totalCount } }", { n: 50 })).toBe(1 + 50);
    expect(cost("{ threads(first: 100000) { totalCount } }")).toBe(1 + 100);
  });

  it("counts a default page of 20 when no size is given, and Run.events' own default", () => {
    expect(cost("{ threads { edges { node { threadId } } } }")).toBe(1 + 20 * 3);
    expect(cost('{ run(runId: "x") { events { seq } } }')).toBe(1 + 1 + 1000 * 1);
  });

  it("multiplies by `limit` (its schema default included) and by the number of ids", () => {
    expect(cost('{ thread(threadId: "x") { history { next } } }')).toBe(1 + 1 + 10 * 1);
    expect(cost('{ thread(threadId: "x") { history(limit: 500) { next } } }')).toBe(1 + 1 + 500 * 1);
    expect(cost('{ nodes(ids: ["a", "b", "c"]) { id } }')).toBe(1 + 3 * 1);
  });

  it("multiplies nested pages, through fragments", () => {
    const query = `{ threads(first: 100) { ...T } } fragment T on ThreadConnection { edges { node { assistant { threads(first: 100) { edges { node { threadId } } } } } } }`;
    expect(cost(query)).toBe(1 + 100 * (1 + 1 + 1 + (1 + 100 * 3)));
  });
});
