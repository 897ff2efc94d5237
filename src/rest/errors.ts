import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { asUnavailableError } from "../db/connection-loss.js";
import { AppError, AuthRefusalError, coerceError, type AppErrorCode } from "../domain/errors.js";
import type { Logger } from "../logger.js";

const STATUS_BY_CODE: Record<AppErrorCode, ContentfulStatusCode> = {
  NOT_FOUND: 404,
  CONFLICT: 409,
  THREAD_BUSY: 409,
  INVALID_INPUT: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** Seconds a client should wait before retrying after a 503 (a database blip is usually short). */
const RETRY_AFTER_SECONDS = 5;

/**
 * The only place REST turns errors into responses: every error body is {"detail": "..."}.
 * Expected errors (AppError) log at warn; a lost database connection (classified by the db layer)
 * is UNAVAILABLE, 503 with Retry-After; anything else is masked as a 500 and logged at error.
 */
export function respondWithError(c: Context, error: unknown, log: Logger): Response {
  if (error instanceof AuthRefusalError) {
    // The deployment's auth module chose this answer (its HTTPException): status, headers and
    // message go out as it wrote them, the message as the body, as LangGraph's server sends it.
    log.warn({ code: error.code, status: error.status, path: c.req.path }, error.message);
    return c.body(error.message, error.status as ContentfulStatusCode, {
      "content-type": "text/plain; charset=utf-8",
      ...error.headers,
    });
  }
  if (error instanceof HTTPException) {
    // Thrown by a route of the deployment's own app (langgraph.json http.app; Hangar's code throws
    // AppErrors): its response, as Hono's default handler gives it. An app that brought its own
    // copy of hono is wrapped in that copy's handler by route() and never reaches this.
    log.warn({ status: error.status, path: c.req.path }, error.message);
    return error.getResponse();
  }
  const expected = error instanceof AppError ? error : asUnavailableError(error);
  if (expected) {
    const status = STATUS_BY_CODE[expected.code];
    if (expected.code === "UNAVAILABLE") {
      log.error({ err: coerceError(error), path: c.req.path }, "database unavailable");
      c.header("Retry-After", String(RETRY_AFTER_SECONDS));
    } else if (expected.code !== "INTERNAL") {
      // INTERNAL (a deployment module's bug) was logged at error, once, where it was caught.
      log.warn({ code: expected.code, status, path: c.req.path }, expected.message);
    }
    return c.json({ detail: expected.message }, status);
  }
  log.error({ err: coerceError(error), path: c.req.path }, "unexpected error");
  return c.json({ detail: "Internal server error" }, 500);
}
