import { decodeJwt } from "jose";

/**
 * When the credential a caller presented stops being valid, when Hangar can tell: the `exp` of a
 * JWT sent as `Authorization: Bearer <jwt>`. Read only after `authenticate` accepted the request
 * (which verified the token; its claims are not trusted for anything else here). A long-lived
 * connection (graphql-ws) is closed at that time: checked only at connect, a socket opened with a
 * token that expires in an hour would otherwise answer for as long as it stays open. API keys and
 * opaque tokens have no expiry Hangar can read (null): those connections are re-authenticated at
 * each operation instead.
 */
export function credentialExpiry(headers: Headers): Date | null {
  const token = /^bearer\s+(\S+)$/i.exec(headers.get("authorization")?.trim() ?? "")?.[1];
  if (!token) return null;
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === "number" && Number.isFinite(exp) ? new Date(exp * 1000) : null;
  } catch {
    return null; // not a JWT: an API key or an opaque token
  }
}
