import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import type { GraphQLArmorRejectCallback } from "@escape.tech/graphql-armor-types";
import type { ExecutionArgs, GraphQLError } from "graphql";
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
    useCostAndBudget(limits, db, log),
  ];
}

/**
 * Below this cost an operation's resolver tree is not handed the abort signal: the executor then
 * races every object against it, which made a 20-thread console page (cost 285) cost 2.6× the
 * executor CPU (measured on a 200-field query: 245 → 650 µs). A tree this small resolves in
 * milliseconds; its deadline still answers on time, and its database waits still stop.
 */
const SIGNALLED_FROM_COST = 10_000;

/**
 * The cost limit, then the deadline and the pool share of a query or mutation (subscriptions:
 * the cost limit only). At the deadline the operation answers DEADLINE_EXCEEDED at once; its
 * waits for database connections end (db/pool-share.ts), and an operation of cost
 * SIGNALLED_FROM_COST or more stops resolving: the executor (@graphql-tools/executor, Yoga's)
 * honours `signal` as Yoga's own useExecutionCancellation passes it. The client going away
 * aborts the same way.
 */
function useCostAndBudget(limits: Readonly<GraphqlLimits>, db: Pick<Database, "shareConnections">, log: Logger): Plugin {
  const { maxCost, deadlineMs, maxDbConnections } = limits;
  const refusal = (cost: number | null) => {
    if (cost === null || cost <= maxCost) return null;
    log.warn({ code: QUERY_TOO_COMPLEX, cost, maxCost }, "GraphQL operation refused: too costly");
    const message = `Query refused: its cost ${cost} exceeds the limit of ${maxCost} (a page field costs its size times its selection).`;
    return { errors: [tooComplex(message, { limit: "maxCost", max: maxCost, cost })] };
  };
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const refused = refusal(costOf(args));
      if (refused) setResultAndStopExecution(refused);
    },
    onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      const cost = costOf(args);
      const refused = refusal(cost);
      if (refused) return setResultAndStopExecution(refused);
      const requestSignal = (args.contextValue as { request?: Request }).request?.signal;
      setExecuteFn(async (executionArgs) => {
        const deadline = new AbortController();
        const timer = setTimeout(() => {
          log.warn({ code: DEADLINE_EXCEEDED, deadlineMs, operationName: executionArgs.operationName }, "GraphQL operation stopped at its deadline");
          const message = `The operation was stopped: it ran longer than the deadline of ${deadlineMs} ms. Ask for less (smaller pages, fewer fields).`;
          deadline.abort(createGraphQLError(message, { extensions: { code: DEADLINE_EXCEEDED, deadlineMs, http: { spec: false, status: 400 } } }));
        }, deadlineMs);
        timer.unref();
        const onRequestAbort = () => deadline.abort(requestSignal?.reason);
        requestSignal?.addEventListener("abort", onRequestAbort, { once: true });
        const stopped = new Promise<never>((_resolve, reject) =>
          deadline.signal.addEventListener("abort", () => reject(deadline.signal.reason as Error), { once: true }),
        );
        const signalled: ExecutionArgs & { signal?: AbortSignal } =
          (cost ?? 0) >= SIGNALLED_FROM_COST ? { ...executionArgs, signal: deadline.signal } : executionArgs;
        try {
          return await Promise.race([db.shareConnections(maxDbConnections, deadline.signal, () => executeFn(signalled)), stopped]);
        } catch (error) {
          // A result rather than a rejection: graphql-ws closes the whole socket (4500) when
          // execute rejects, and over HTTP the error's own status applies either way.
          if (error === deadline.signal.reason && isDeadlineError(error)) return { errors: [error] };
          throw error;
        } finally {
          clearTimeout(timer);
          requestSignal?.removeEventListener("abort", onRequestAbort);
        }
      });
    },
  };
}

/**
 * The cost, or null when it cannot be computed because the variables do not fit the operation:
 * execution reports that itself, with GraphQL's own message.
 */
function costOf(args: ExecutionArgs): number | null {
  try {
    return operationCost(args.schema, args.document, args.variableValues ?? undefined, args.operationName ?? undefined);
  } catch (error) {
    // graphql-query-complexity stops walking after 10,000 nodes (fragments spread many times).
    if (error instanceof Error && /maximum allowed number of nodes/.test(error.message)) return Number.POSITIVE_INFINITY;
    return null;
  }
}

function isDeadlineError(error: unknown): error is GraphQLError {
  return error instanceof Error && (error as Partial<GraphQLError>).extensions?.code === DEADLINE_EXCEEDED;
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
