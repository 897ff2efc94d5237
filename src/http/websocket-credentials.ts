import type http from "node:http";
import { AppError, AuthRefusalError } from "../domain/errors.js";

/**
 * Credentials a browser sends on a WebSocket. Browsers cannot set headers on one, and the SDK's
 * protocol transport sends none from a browser (it refuses `defaultHeaders` there and leaves the
 * socket to a `webSocketFactory`), whose only other channel is the subprotocol list. So a
 * credential may travel as an offered subprotocol, base64url-encoded (subprotocol names allow no
 * `=`, `/` or `+`), read as the header it stands for:
 *   `hangar-auth.bearer.<base64url(token)>`  → `Authorization: Bearer <token>`
 *   `hangar-auth.api-key.<base64url(key)>`   → `x-api-key: <key>`
 * Subprotocols are not logged with URLs nor kept in browser history, unlike a query parameter.
 * The server answers with the first offered subprotocol that is not a credential (a browser
 * refuses a handshake whose answer names none of those it offered), never a credential.
 */
const CREDENTIAL_PREFIX = "hangar-auth.";
const HEADER_OF_KIND: Record<string, (value: string) => [string, string]> = {
  bearer: (token) => ["authorization", `Bearer ${token}`],
  "api-key": (key) => ["x-api-key", key],
};

export function isCredentialProtocol(protocol: string): boolean {
  return protocol.startsWith(CREDENTIAL_PREFIX);
}

export interface SubprotocolCredentials {
  /** The headers the offered credentials stand for; empty when none were offered. */
  headers: Record<string, string>;
  /** The offered subprotocols that are not credentials, in the client's order. */
  protocols: string[];
  /** Whether any was offered as a credential, even one that does not read as one. */
  offersCredential: boolean;
}

export function subprotocolCredentials(request: http.IncomingMessage): SubprotocolCredentials {
  const offered = (request.headers["sec-websocket-protocol"] ?? "")
    .split(",")
    .map((protocol) => protocol.trim())
    .filter(Boolean);
  const headers: Record<string, string> = {};
  const protocols: string[] = [];
  for (const protocol of offered) {
    if (!isCredentialProtocol(protocol)) {
      protocols.push(protocol);
      continue;
    }
    const rest = protocol.slice(CREDENTIAL_PREFIX.length);
    const dot = rest.indexOf(".");
    const headerOf = dot > 0 ? HEADER_OF_KIND[rest.slice(0, dot)] : undefined;
    const value = dot > 0 ? Buffer.from(rest.slice(dot + 1), "base64url").toString("utf8") : "";
    // An unknown kind or an empty value is no credential: authentication then refuses the socket.
    if (headerOf && value) {
      const [name, headerValue] = headerOf(value);
      headers[name] = headerValue;
    }
  }
  return { headers, protocols, offersCredential: protocols.length < offered.length };
}

/**
 * A refused credential on an accepted socket, as the SDK's transports read close codes: 4000 +
 * the HTTP status the request would have got (4401, 4403, …), which ends the SDK's stream with
 * that status instead of reconnecting; the reason is the refusal's message.
 */
export function refusalCloseCode(refusal: AppError): number {
  if (refusal instanceof AuthRefusalError && refusal.status >= 400 && refusal.status < 500) return 4000 + refusal.status;
  if (refusal.code === "FORBIDDEN") return 4403;
  if (refusal.code === "INTERNAL") return 1011;
  return 4401;
}

/**
 * Why the socket closes, within the 123 bytes a close frame allows: a deployment handler's own
 * message, or for Hangar's missing-or-wrong key, where a browser puts one (the default message
 * names a header, which a browser cannot send).
 */
export function closeReason(refusal: AppError): string {
  let reason =
    refusal instanceof AuthRefusalError || refusal.code !== "UNAUTHENTICATED"
      ? refusal.message
      : "Missing or invalid API key: a browser offers it as the subprotocol hangar-auth.api-key.<base64url(key)>";
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}
