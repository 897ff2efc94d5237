import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
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

/**
 * The only place REST turns errors into responses: every error body is {"detail": "..."}.
 * Expected errors (AppError) log at warn; anything else is masked as a 500 and logged at error.
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
  if (error instanceof AppError) {
    const status = STATUS_BY_CODE[error.code];
    log.warn({ code: error.code, status, path: c.req.path }, error.message);
    return c.json({ detail: error.message }, status);
  }
  const cause = coerceError(error);
  if (isDatabaseUnavailable(cause)) {
    log.error({ err: cause, path: c.req.path }, "database unavailable");
    return c.json({ detail: "The database is unavailable; try again shortly" }, 503);
  }
  log.error({ err: cause, path: c.req.path }, "unexpected error");
  return c.json({ detail: "Internal server error" }, 500);
}

function isDatabaseUnavailable(error: Error): boolean {
  const code = (error as { code?: string }).code;
  return code === "ECONNREFUSED" || code === "57P01" || code === "57P03" || code === "08006" || code === "08001";
}
