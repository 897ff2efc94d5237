import type { AuthUser } from "../auth/auth-types.js";
import { type JsonObject, jsonObjectOrEmpty } from "../domain/json.js";

/**
 * A run created by a custom-auth user carries that user in `config.configurable`, under the keys
 * LangGraph's server uses (`langgraph_auth_user`, `langgraph_auth_user_id`,
 * `langgraph_auth_permissions`): graphs read them to act for the user (e.g. store namespaces per
 * user). They overwrite whatever the request put there, so no caller can claim another identity.
 * A cron stores its run config with them, so its firings run as the user who created it.
 */
export function withAuthUser(config: JsonObject, user: AuthUser | undefined): JsonObject {
  if (!user) return config;
  return {
    ...config,
    configurable: {
      ...jsonObjectOrEmpty(config.configurable),
      langgraph_auth_user: user,
      langgraph_auth_user_id: user.identity,
      langgraph_auth_permissions: user.permissions,
    },
  };
}
