import { UnavailableError } from "../domain/errors.js";

/**
 * Whether an error means "the database cannot be reached right now" rather than "this statement
 * is wrong": the one place that knows how node-postgres, pg-pool and TypeORM report it. Transports
 * answer it as UNAVAILABLE (REST 503 with Retry-After, GraphQL `extensions.code`), and the retry
 * helper (retry.ts) retries idempotent work on it.
 *
 * - SQLSTATE class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
 *   57P03 cannot_connect_now (starting up, in recovery), 53300 too_many_connections;
 * - socket errors of the connection (refused, reset, timed out, unreachable);
 * - node-postgres's own errors, which carry no code at all: "Connection terminated unexpectedly"
 *   (the server or a proxy closed the socket), "… is not queryable" (a client whose connection
 *   failed earlier), and pg-pool's "timeout exceeded when trying to connect".
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const SOCKET_ERROR_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /is not queryable$/,
  /^timeout exceeded when trying to connect$/,
];

export function isConnectionLoss(error: unknown): boolean {
  return causesOf(error).some((cause) => {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith("08") || SOCKET_ERROR_CODES.has(code))) {
      return true;
    }
    return DRIVER_MESSAGES.some((pattern) => pattern.test(cause.message));
  });
}

/** error as an UnavailableError (with it as cause) when it is a connection loss; otherwise null. */
export function asUnavailableError(error: unknown): UnavailableError | null {
  if (error instanceof UnavailableError) return error;
  if (!isConnectionLoss(error)) return null;
  return new UnavailableError("The database is unavailable; try again shortly", { cause: error });
}

/**
 * The error and what it wraps: TypeORM's QueryFailedError keeps the pg error as `driverError`,
 * GraphQL as `originalError`, everything else as `cause`; AggregateError (a connect attempt to
 * every address of a host) its `errors`.
 */
function causesOf(error: unknown): Error[] {
  const found: Error[] = [];
  const pending: unknown[] = [error];
  while (pending.length > 0 && found.length < 16) {
    const current = pending.shift();
    if (!(current instanceof Error) || found.includes(current)) continue;
    found.push(current);
    const wrapper = current as { driverError?: unknown; originalError?: unknown; cause?: unknown };
    pending.push(wrapper.driverError, wrapper.originalError, wrapper.cause);
    if (current instanceof AggregateError) pending.push(...current.errors);
  }
  return found;
}
