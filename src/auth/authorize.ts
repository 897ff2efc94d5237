import type { AuthFilters } from "../domain/auth-filter.js";
import { ForbiddenError } from "../domain/errors.js";
import type { ServiceContext } from "../services/service-context.js";
import type { AuthAction, AuthResource } from "./auth-types.js";
import { validateAuthFilters } from "./auth-filters.js";
import { toAppError } from "./handler-errors.js";

/**
 * The one authorization decision of a service call (STYLE §2.3). It runs the deployment's most
 * specific handler for `resource:action` (then `resource`, `*:action`, `*`, as LangGraph does),
 * which may mutate `value` (e.g. stamp `metadata.owner` on create) and may return filters that
 * the caller applies in SQL to everything it reads or writes. Returns undefined when nothing is
 * to be filtered: no custom auth, no handler, or a handler that allowed the call outright.
 *
 * Refusals: a handler returning `false` → 403; a handler's own HTTPException → its status;
 * anything else thrown → 500 (logged once, internals hidden).
 */
export async function authorize(
  ctx: ServiceContext,
  resource: AuthResource,
  action: AuthAction,
  value: Record<string, unknown>,
): Promise<AuthFilters | undefined> {
  const handlers = ctx.customAuth?.callbacks;
  const user = ctx.actor.user;
  if (!handlers || !user) return undefined;
  const key = [`${resource}:${action}`, resource, `*:${action}`, "*"].find((candidate) => handlers[candidate]);
  if (key === undefined) return undefined;
  const handler = handlers[key];
  let result: unknown;
  try {
    result = await handler({ event: `${resource}:${action}`, resource, action, value, user, permissions: user.permissions });
  } catch (error) {
    throw toAppError(error, `auth handler "${key}"`, ctx.log);
  }
  if (result === undefined || result === null || result === true) return undefined;
  if (result === false) throw new ForbiddenError("Forbidden");
  return validateAuthFilters(result, `auth handler "${key}"`);
}
