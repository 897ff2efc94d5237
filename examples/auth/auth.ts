import { Auth, HTTPException } from "@langchain/langgraph-sdk/auth";
import { jwtVerify } from "jose";

/**
 * Per-user auth for the example deployment: every request carries `Authorization: Bearer <JWT>`
 * signed with HS256 by your login service (here: HANGAR_JWT_SECRET). The token's `sub` is the
 * user, its `scopes` the permissions, its `name` the display name.
 *
 * Each user owns what they create: threads, runs and crons are stamped with `metadata.owner` and
 * every read, list, update and delete is limited to the caller's own (another user's thread
 * answers 404). Assistants are shared for reading and running, changed only by their creator.
 * Store items live under the user's own namespace.
 */
const secret = new TextEncoder().encode(process.env.HANGAR_JWT_SECRET ?? "");
if (secret.length < 32) throw new Error("HANGAR_JWT_SECRET must be set to at least 32 characters");

export const auth = new Auth()
  .authenticate(async (request: Request) => {
    const authorization = request.headers.get("authorization") ?? "";
    const [scheme, token] = authorization.split(" ");
    if (scheme?.toLowerCase() !== "bearer" || !token) {
      throw new HTTPException(401, { message: "Missing bearer token", headers: { "WWW-Authenticate": "Bearer" } });
    }
    try {
      const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"] });
      if (typeof payload.sub !== "string") throw new Error("the token has no subject");
      const scopes = Array.isArray(payload.scopes) ? payload.scopes.filter((scope) => typeof scope === "string") : [];
      const name = typeof payload.name === "string" ? payload.name : payload.sub;
      return { identity: payload.sub, permissions: scopes, display_name: name };
    } catch {
      throw new HTTPException(401, { message: "Invalid or expired token", headers: { "WWW-Authenticate": "Bearer" } });
    }
  })
  // Owner stamp on everything a user creates or edits, and only their own in every answer.
  .on(["threads", "crons"], ({ action, value, user }) => {
    if (action === "create" || action === "update" || action === "create_run") stampOwner(value, user.identity);
    return { owner: user.identity };
  })
  // Assistants are the deployment's configurations: everyone may read and run them (the graphs'
  // own system assistants included), only their creator may change or delete one.
  .on("assistants", ({ action, value, user }) => {
    if (action === "read" || action === "search") return;
    if (action === "create") stampOwner(value, user.identity);
    return { owner: user.identity };
  })
  // Long-term memory: a user reads and writes only namespaces that start with their identity.
  .on("store", ({ value, user }) => {
    const namespace = (value as { namespace?: string[] | null }).namespace;
    if (namespace?.length && namespace[0] !== user.identity) {
      throw new HTTPException(403, { message: "Store namespaces must start with your user id" });
    }
    return { namespace: { $contains: user.identity } };
  });

function stampOwner(value: unknown, owner: string): void {
  const withMetadata = value as { metadata?: Record<string, unknown> | null };
  withMetadata.metadata = { ...(withMetadata.metadata ?? {}), owner };
}
