import { authFiltersAsContainment } from "../domain/auth-filter.js";
import type { AuthAction, AuthResource } from "../auth/auth-types.js";
import { authorize } from "../auth/authorize.js";
import { ForbiddenError } from "../domain/errors.js";
import type { ServiceContext } from "./service-context.js";

/**
 * What a caller may see of a resource: a JSONB document its `metadata` must contain (`@>`).
 * `{}` contains nothing and so restricts nothing, which lets every query carry the condition
 * unconditionally instead of branching on whether custom auth is configured.
 */
export type MetadataScope = Record<string, unknown>;

export const UNRESTRICTED: MetadataScope = Object.freeze({}) as MetadataScope;

/**
 * The authorization of one service call: runs the deployment's handler for `resource:action`
 * (which may mutate `value`, e.g. stamp an owner into `value.metadata`) and turns the filters it
 * returns into the scope the call's SQL applies. Refusals throw (403, or the handler's status).
 */
export async function scopeOf(
  ctx: ServiceContext,
  resource: AuthResource,
  action: AuthAction,
  value: Record<string, unknown>,
): Promise<MetadataScope> {
  const filters = await authorize(ctx, resource, action, value);
  return filters ? authFiltersAsContainment(filters) : UNRESTRICTED;
}

/** Whether a scope restricts anything (cheap paths may skip the condition when it does not). */
export function isRestricted(scope: MetadataScope): boolean {
  return Object.keys(scope).length > 0;
}

/**
 * Metadata a handler stamped into `value.metadata` (create/update handlers set owners there),
 * read back as an object whatever the handler left behind.
 */
export function stampedMetadata(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const metadata = value.metadata;
  return typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)
    : undefined;
}

/**
 * For resources custom auth has no handlers for and that span every user (the trace store holds
 * the inputs and outputs of everyone's runs, and what is ingested shows in everyone's costs;
 * model prices are the deployment's): a user signed in through the deployment's `authenticate`
 * may not use them. (Hangar records its own graph runs' traces as the system, not as the user.) Operators call with an API key
 * (HANGAR_API_KEYS), and deployments without custom auth are unaffected.
 */
export function requireOperator(ctx: ServiceContext, what: string): void {
  if (ctx.actor.kind === "user") {
    throw new ForbiddenError(`${what} are for operators: call with a HANGAR_API_KEYS key, not a user's credentials`);
  }
}
