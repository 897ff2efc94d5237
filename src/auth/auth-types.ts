import type { AuthResultCache } from "./auth-result-cache.js";
/**
 * The shapes of custom authentication and authorization, as `@langchain/langgraph-sdk/auth`
 * defines them for user modules (its `Auth` class, `authenticate` and `on` callbacks).
 */

/** Resources and actions a handler can be registered for (`auth.on("threads:create", …)`). */
export type AuthResource = "threads" | "assistants" | "crons" | "store";
export type AuthAction =
  | "create"
  | "read"
  | "update"
  | "delete"
  | "search"
  | "create_run"
  | "put"
  | "get"
  | "list_namespaces";

/** The user a request runs as, after `authenticate` (or the built-in API-key check). */
export interface AuthUser {
  identity: string;
  permissions: string[];
  display_name: string;
  is_authenticated: boolean;
  /** Custom fields returned by `authenticate` stay on the user, as handlers expect. */
  [field: string]: unknown;
}

export interface AuthHandlerParameter {
  event: string;
  resource: AuthResource;
  action: AuthAction;
  value: Record<string, unknown>;
  user: AuthUser;
  permissions: string[];
}

export type AuthHandler = (parameter: AuthHandlerParameter) => unknown;
export type AuthenticateHandler = (request: Request) => unknown;

/** The handlers of the deployment's `auth.path` module. */
export interface CustomAuthHandlers {
  authenticate?: AuthenticateHandler;
  /** Keyed as registered: `threads:create`, `threads`, `*:create` or `*`. */
  callbacks: Record<string, AuthHandler>;
  /** langgraph.json `auth.cache`: `authenticate` results kept per caller (auth-result-cache.ts). */
  resultCache?: AuthResultCache;
}
