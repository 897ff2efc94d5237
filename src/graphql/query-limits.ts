import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import type { GraphQLArmorRejectCallback } from "@escape.tech/graphql-armor-types";
import type { DocumentNode, ExecutionArgs, GraphQLError, GraphQLSchema } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { GraphqlLimits } from "../config.js";
import type { Database } from "../db/database.js";
import type { Logger } from "../logger.js";
import { operationCost } from "./query-cost.js";

/** `extensions.code` of an operation refused for its size, before any of it runs. */
export const QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX";
/** `extensions.code` of a query or mutation stopped at its deadline. */
export const DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED";
/** `extensions.code` of an operation refused because its WebSocket already runs the most allowed. */
export const TOO_MANY_SUBSCRIPTIONS = "TOO_MANY_SUBSCRIPTIONS";

/**
 * What one operation may ask of the server, enforced on every transport (HTTP, SSE and graphql-ws
 * all go through Yoga's enveloped parse → validate → execute/subscribe):
 * - tokens while parsing (so a huge document is refused before its AST exists), then depth,
 *   aliases and directives while validating: GraphQL Armor's plugins;
 * - cost (query-cost.ts) once the variables are known, before execution;
 * - a deadline on queries and mutations (subscriptions live as long as their stream), and a share
 *   of the database pool each of them may hold at once (db/pool-share.ts).
 * Every refusal is QUERY_TOO_COMPLEX with the limit it broke in `extensions`, and HTTP 400, also
 * for legacy application/json (`spec: false`), so clients do not retry it. One exception: Yoga
 * answers a document that fails to parse (the token limit) as GraphQL over HTTP asks, 200 for
 * application/json (its usePreventMutationViaGET sets `spec` on parse errors); the console and
 * application/graphql-response+json clients get 400.
 * Measured on the 1,000-alias bomb and the 100 × 100 fan-out of issue 25: refused in a few
 * milliseconds, where they took 14.8 s of CPU and 4.2 GB of memory before.
 */
export function useQueryLimits(limits: Readonly<GraphqlLimits>, db: Pick<Database, "shareConnections">, log: Logger): Plugin[] {
  // Armor's own error says which limit broke ("… limit of 30 exceeded, found 1000"); ours adds
  // the code and the limit as data. The parser has no validation context to report to, so the
  // token refusal is thrown (it stops the lexer there); validation rules report theirs.
  const refuse = (limit: keyof GraphqlLimits): GraphQLArmorRejectCallback[] => [
    (context, error) => {
      const message = error.message.replace(/^Syntax Error: /, "");
      log.warn({ code: QUERY_TOO_COMPLEX, limit, max: limits[limit] }, message);
      const refusal = tooComplex(`Query refused: ${message}`, { limit, max: limits[limit] });
      if (!context) throw refusal;
      context.reportError(refusal);
    },
  ];
  const reported = { propagateOnRejection: false };
  return [
    maxTokensPlugin({ n: limits.maxTokens, onReject: refuse("maxTokens") }),
    maxDepthPlugin({ n: limits.maxDepth, onReject: refuse("maxDepth"), flattenFragments: true, ...reported }),
    maxAliasesPlugin({ n: limits.maxAliases, onReject: refuse("maxAliases"), ...reported }),
    maxDirectivesPlugin({ n: limits.maxDirectives, onReject: refuse("maxDirectives"), ...reported }),
    useCostLimit(limits.maxCost, log),
    useExecutionBudget(limits, db, log),
  ];
}

function useCostLimit(maxCost: number, log: Logger): Plugin {
  const refusal = (args: ExecutionArgs) => {
    const cost = costOf(args.schema, args.document, args.variableValues ?? undefined, args.operationName ?? undefined);
    if (cost === null || cost <= maxCost) return null;
    log.warn({ code: QUERY_TOO_COMPLEX, cost, maxCost }, "GraphQL operation refused: too costly");
    const message = `Query refused: its cost ${cost} exceeds the limit of ${maxCost} (a page field costs its size times its selection).`;
    return { errors: [tooComplex(message, { limit: "maxCost", max: maxCost, cost })] };
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const result = refusal(args);
      if (result) setResultAndStopExecution(result);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const result = refusal(args);
      if (result) setResultAndStopExecution(result);
    },
  };
}

/**
 * The cost, or null when it cannot be computed because the variables do not fit the operation:
 * execution reports that itself, with GraphQL's own message.
 */
function costOf(schema: GraphQLSchema, document: DocumentNode, variables: ExecutionArgs["variableValues"], operationName: string | undefined): number | null {
  try {
    return operationCost(schema, document, variables ?? undefined, operationName);
  } catch (error) {
    // graphql-query-complexity stops walking after 10,000 nodes (fragments spread many times).
    if (error instanceof Error && /maximum allowed number of nodes/.test(error.message)) return Number.POSITIVE_INFINITY;
    return null;
  }
}

/**
 * The deadline and the pool share of a query or mutation. The executor (@graphql-tools/executor,
 * Yoga's) stops resolving once `signal` aborts and rejects with its reason; Yoga's own
 * useExecutionCancellation hands it the request's signal the same way. We pass both: the client
 * going away, or the deadline. Connection waits in the share end with the same signal.
 */
function useExecutionBudget(limits: Readonly<GraphqlLimits>, db: Pick<Database, "shareConnections">, log: Logger): Plugin {
  const { deadlineMs, maxDbConnections } = limits;
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      setExecuteFn(async (executionArgs) => {
        const deadline = new AbortController();
        const timer = setTimeout(() => {
          log.warn({ code: DEADLINE_EXCEEDED, deadlineMs, operationName: executionArgs.operationName }, "GraphQL operation stopped at its deadline");
          const message = `The operation was stopped: it ran longer than the deadline of ${deadlineMs} ms. Ask for less (smaller pages, fewer fields).`;
          deadline.abort(createGraphQLError(message, { extensions: { code: DEADLINE_EXCEEDED, deadlineMs, http: { spec: false, status: 400 } } }));
        }, deadlineMs);
        timer.unref();
        const requestSignal = (args.contextValue as { request?: Request }).request?.signal;
        const signal = requestSignal ? AbortSignal.any([requestSignal, deadline.signal]) : deadline.signal;
        const withSignal: ExecutionArgs & { signal: AbortSignal } = { ...executionArgs, signal };
        try {
          return await db.shareConnections(maxDbConnections, signal, () => executeFn(withSignal));
        } catch (error) {
          // A result rather than a rejection: graphql-ws closes the whole socket (4500) when
          // execute rejects, and over HTTP the error's own status applies either way.
          if (deadline.signal.aborted && error === deadline.signal.reason) return { errors: [error as GraphQLError] };
          throw error;
        } finally {
          clearTimeout(timer);
        }
      });
    },
  };
}

/**
 * graphql-ws's refusal of one more operation on a socket that already has `max` in flight
 * (`inFlight` counts the new one: graphql-ws lists it in ctx.subscriptions before onSubscribe).
 * Subscriptions are what stays in flight; each holds a stream of run events open.
 */
export function socketOperationRefusal(inFlight: number, max: number): GraphQLError | null {
  if (inFlight <= max) return null;
  const message = `This WebSocket already has ${max} operations in flight (HANGAR_GRAPHQL_MAX_SUBSCRIPTIONS_PER_SOCKET); complete one first or open another socket.`;
  return createGraphQLError(message, { extensions: { code: TOO_MANY_SUBSCRIPTIONS, max } });
}

function tooComplex(message: string, limit: { limit: keyof GraphqlLimits; max: number; cost?: number }): GraphQLError {
  return createGraphQLError(message, { extensions: { code: QUERY_TOO_COMPLEX, ...limit, http: { spec: false, status: 400 } } });
}
