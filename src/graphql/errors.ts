import { PothosValidationError } from "@pothos/core";
import type { GraphQLError } from "graphql";
import { createGraphQLError, maskError as maskUnexpectedError, type MaskError } from "graphql-yoga";
import { asUnavailableError } from "../db/connection-loss.js";
import { AppError, coerceError, type AppErrorCode } from "../domain/errors.js";
import type { Logger } from "../logger.js";

/** `extensions.code` values clients can branch on: every AppError code (INVALID_INPUT included). */
export type GraphqlErrorCode = AppErrorCode;

/**
 * The only place GraphQL turns errors into what clients see (Yoga's `maskError` hook, which sees
 * every error of every operation, over HTTP and WebSocket alike):
 * - AppError → its message with `extensions.code` (NOT_FOUND, CONFLICT, INVALID_INPUT, …),
 *   logged at warn;
 * - a lost database connection (db/connection-loss.ts) → UNAVAILABLE;
 * - Pothos input validation (malformed global ID or cursor) → INVALID_INPUT;
 * - GraphQL's own errors (syntax, validation, variable coercion) pass through unchanged;
 * - anything else is masked as "Unexpected error." and logged at error; the original is attached
 *   to the response only when `isDev` (NODE_ENV=development).
 */
export function createErrorMasker(log: Logger): MaskError {
  return (error, message, isDev) => {
    const expected = expectedCause(error);
    if (expected) {
      // INTERNAL (a deployment module's bug) was logged at error, once, where it was caught.
      if (expected.code !== "INTERNAL") log.warn({ code: expected.code, path: pathOf(error) }, expected.message);
      const located = error as Partial<GraphQLError>;
      return createGraphQLError(expected.message, {
        nodes: located.nodes,
        source: located.source,
        positions: located.positions,
        path: located.path,
        extensions: { code: expected.code },
      });
    }
    // Yoga recognises these with `instanceof`, which fails across copies of graphql (see below).
    if (isGraphQLError(rootCause(error))) return error as Error;
    const masked = maskUnexpectedError(error, message, isDev);
    if (masked !== error) log.error({ err: coerceError(rootCause(error)), path: pathOf(error) }, "unexpected GraphQL error");
    return masked;
  };
}

/**
 * The error a resolver threw, if it is one clients should see. GraphQL wraps it in a located
 * GraphQLError (`originalError`). The chain is walked by shape, not `instanceof GraphQLError`:
 * under Vitest, Yoga's executor and our modules can load different copies of `graphql`.
 */
function expectedCause(error: unknown): { code: GraphqlErrorCode; message: string } | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof AppError) return { code: current.code, message: current.message };
    if (current instanceof PothosValidationError) return { code: "INVALID_INPUT", message: current.message };
    current = (current as { originalError?: unknown }).originalError;
  }
  // A lost database connection, as the db layer classifies it: UNAVAILABLE, retry later.
  const unavailable = asUnavailableError(error);
  return unavailable && { code: unavailable.code, message: unavailable.message };
}

function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const next = (current as { originalError?: unknown } | null)?.originalError;
    if (next == null) break;
    current = next;
  }
  return current;
}

/** By name, as Yoga's own helper does, so any copy of graphql counts. */
function isGraphQLError(value: unknown): boolean {
  return value instanceof Error && value.name === "GraphQLError";
}

function pathOf(error: unknown): string | undefined {
  return (error as { path?: ReadonlyArray<string | number> } | null)?.path?.join(".");
}
