import { AppError, AuthRefusalError, coerceError } from "../domain/errors.js";
import type { Logger } from "../logger.js";

/** The default messages of the statuses auth handlers use most, as the SDK's HTTPException has them. */
const STATUS_TEXT: Record<number, string> = { 401: "Unauthorized", 403: "Forbidden", 404: "Not Found" };

/**
 * Turns what an auth module threw into the error the caller sees. The SDK's `HTTPException` is
 * recognised by shape (`status` and `headers`), not `instanceof`: the module may bring its own
 * copy of the SDK. Anything else is the module's bug: a 500 with no internals, logged once here.
 */
export function toAppError(thrown: unknown, where: string, log: Logger): AppError {
  if (thrown instanceof AppError) return thrown;
  if (isHttpException(thrown)) {
    const status = thrown.status;
    const message = thrown.message || STATUS_TEXT[status] || "Unauthorized";
    return new AuthRefusalError(status, message, headersOf(thrown.headers));
  }
  log.error({ err: coerceError(thrown) }, `${where} threw an unexpected error`);
  return new AuthModuleError(`${where} failed; see the server log`);
}

/** An auth module's own bug: never a refusal the client caused. */
export class AuthModuleError extends AppError {
  constructor(message: string) {
    super("INTERNAL", message);
  }
}

interface HttpExceptionLike {
  status: number;
  message: string;
  headers: unknown;
}

function isHttpException(value: unknown): value is HttpExceptionLike {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<HttpExceptionLike>;
  return typeof candidate.status === "number" && "headers" in candidate && candidate.status >= 400 && candidate.status < 600;
}

function headersOf(headers: unknown): Record<string, string> {
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (typeof headers !== "object" || headers === null) return {};
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === "string") result[name] = value;
  return result;
}
