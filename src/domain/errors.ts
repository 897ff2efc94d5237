/**
 * The only errors services throw. Each carries a transport-neutral code; REST maps codes to
 * statuses in rest/app.ts and GraphQL to extensions.code in graphql/errors.ts, nowhere else.
 */
export type AppErrorCode =
  | "NOT_FOUND"
  | "CONFLICT"
  | "INVALID_INPUT"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "THREAD_BUSY"
  | "PAYLOAD_TOO_LARGE"
  | "UNAVAILABLE"
  /** A failure of the deployment's own code (e.g. its auth module), reported without internals. */
  | "INTERNAL";

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super("NOT_FOUND", message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super("CONFLICT", message);
  }
}

export class InvalidInputError extends AppError {
  constructor(message: string) {
    super("INVALID_INPUT", message);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = "Missing or invalid API key: send it in the x-api-key header") {
    super("UNAUTHENTICATED", message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "Forbidden") {
    super("FORBIDDEN", message);
  }
}

/**
 * A refusal chosen by the deployment's auth module (its `HTTPException`): the status, headers and
 * message are the handler's, and transports pass them on as written (REST answers with that
 * status and the message as the body, as LangGraph's server does).
 */
export class AuthRefusalError extends AppError {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(status === 401 ? "UNAUTHENTICATED" : status === 404 ? "NOT_FOUND" : "FORBIDDEN", message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super("PAYLOAD_TOO_LARGE", `Request body is larger than the limit of ${limitBytes} bytes`);
  }
}

export class UnavailableError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("UNAVAILABLE", message, options);
  }
}

/** Anything caught as unknown becomes an Error (with the original as cause) before logging. */
export function coerceError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === "string" ? value : JSON.stringify(value), { cause: value });
}

/** A run was refused because its thread already has one (multitask strategy `reject`). */
export class ThreadBusyError extends AppError {
  constructor(threadId: string) {
    super("THREAD_BUSY", `Thread '${threadId}' is busy with another run; use multitask_strategy interrupt, rollback or enqueue to run anyway`);
  }
}
