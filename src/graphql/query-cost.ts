import type { DocumentNode, GraphQLSchema } from "graphql";
import { getComplexity, simpleEstimator, type ComplexityEstimator } from "graphql-query-complexity";
import { MAX_RUN_EVENTS_PER_READ } from "../services/run-events.service.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./pagination.js";

/**
 * What an operation costs before it runs: every selected field costs 1, and a field that returns
 * a page (a connection's `first`/`last`, `limit`, or `ids`) multiplies its selection by how many
 * items it can return. `threads(first: 100) { edges { node { assistant { threads(first: 100)
 * { … } } } } }` costs 100 × (3 + 100 × …), where a flat count would see a dozen fields.
 *
 * The walking (fragments, inline fragments, @skip/@include, variables, argument defaults, a node
 * budget against fragment blow-ups) is graphql-query-complexity's. GraphQL Armor's cost-limit
 * plugin was the first choice, but it weighs fields by depth only and cannot read arguments, so it
 * cannot multiply by a page size.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
): number {
  return getComplexity({
    schema,
    query: document,
    variables: variables ?? {},
    operationName,
    estimators: [pageEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
}

/** The most items a field with a page argument can return; undefined for other fields. */
function pageSizeOf(fieldArgs: ReadonlyArray<{ name: string }>, args: Record<string, unknown>, fieldCoordinate: string): number | undefined {
  const names = new Set(fieldArgs.map((arg) => arg.name));
  const requested = [args.first, args.last, args.limit].find((value): value is number => typeof value === "number");
  if (names.has("first") || names.has("last")) {
    // Run.events reads up to MAX_RUN_EVENTS_PER_READ by default; connections a page of 20 up to 100.
    const [defaultSize, maxSize] =
      fieldCoordinate === "Run.events" ? [MAX_RUN_EVENTS_PER_READ, MAX_RUN_EVENTS_PER_READ] : [DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE];
    return clamp(requested ?? defaultSize, maxSize);
  }
  // `limit` fields declare their default in the schema, which arrives here as the argument's value.
  if (names.has("limit")) return Math.max(requested ?? DEFAULT_PAGE_SIZE, 1);
  if (names.has("ids") && Array.isArray(args.ids)) return Math.max(args.ids.length, 1);
  return undefined;
}

const pageEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  const size = pageSizeOf(field.args, args, `${type.name}.${field.name}`);
  return size === undefined ? undefined : 1 + size * childComplexity;
};

function clamp(size: number, maxSize: number): number {
  return Math.min(Math.max(size, 1), maxSize);
}
