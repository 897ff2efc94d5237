import { Auth, HTTPException } from "@langchain/langgraph-sdk/auth";
import { jwtVerify } from "jose";

/**
 * Per-user auth for the example deployment: every request carries exactly
 * `Authorization: Bearer <JWT>`, an HS256 token signed by your login service (here with
 * HANGAR_JWT_SECRET) that must carry `exp`. The token's `sub` is the user, its `scopes` the
 * permissions, its `name` the display name. Anything else (another scheme, extra text after the
 * token, a token without `exp` or past it) answers 401.
 *
 * Each user owns what they create: threads, runs and crons are stamped with `metadata.owner` and
 * every read, list, update and delete is limited to the caller's own (another user's thread
 * answers 404). Assistants are shared for reading and running, changed only by their creator.
 * Store namespaces are prefixed with the user's id, so a user only ever reaches their own items.
 */
const secret = new TextEncoder().encode(process.env.HANGAR_JWT_SECRET ?? "");
if (secret.length < 32) throw new Error("HANGAR_JWT_SECRET must be set to at least 32 characters");

// The whole header: the scheme (case-insensitive, RFC 9110), one space, a compact JWS, nothing else.
const BEARER_JWT = /^bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i;

export const auth = new Auth()
  .authenticate(async (request: Request) => {
    const token = BEARER_JWT.exec(request.headers.get("authorization") ?? "")?.[1];
    if (!token) {
      throw new HTTPException(401, { message: "Expected exactly 'Authorization: Bearer <token>'", headers: { "WWW-Authenticate": "Bearer" } });
    }
    try {
      // `exp` required: a token that never expires cannot be taken back once it leaks.
      const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"], requiredClaims: ["exp"] });
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
  // Long-term memory, as LangGraph's store-auth guide scopes it: every namespace a user names
  // (put, get, delete, a search's prefix, a listing's prefix) is prefixed with their id, so
  // ["notes"] is ["alice", "notes"] for alice and ["bob", "notes"] for bob. A namespace that
  // already starts with the caller's id is left as it is, so one read back from a search or
  // written by a graph under the user's id can be sent again.
  .on("store", ({ value, user }) => {
    const scoped = value as { namespace?: string[] | null };
    const label = storeLabelOf(user.identity);
    const namespace = scoped.namespace ?? [];
    if (namespace[0] !== label) scoped.namespace = [label, ...namespace];
  });

/**
 * The user's id as a namespace label: labels may not contain dots, so `.` (and `%`, to keep the
 * mapping one-to-one) are percent-encoded; `alice@example.com` is `alice@example%2Ecom`.
 */
function storeLabelOf(identity: string): string {
  return identity.replace(/[%.]/g, (character) => (character === "%" ? "%25" : "%2E"));
}

function stampOwner(value: unknown, owner: string): void {
  const withMetadata = value as { metadata?: Record<string, unknown> | null };
  withMetadata.metadata = { ...(withMetadata.metadata ?? {}), owner };
}
