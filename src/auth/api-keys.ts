import { timingSafeEqual } from "node:crypto";
import type { Actor } from "../services/service-context.js";

/**
 * The one place that decides whether a request may use the API. Used by the HTTP middleware
 * (REST, GraphQL over HTTP, SSE) and by the WebSocket upgrade, so every transport agrees.
 * Returns null when the request must be refused.
 */
export function authenticateRequest(apiKeys: readonly string[], headers: Headers | Record<string, string | string[] | undefined>): Actor | null {
  if (apiKeys.length === 0) return { kind: "anonymous" };
  const presented = presentedKey(headers);
  if (presented === null) return null;
  return apiKeys.some((key) => safeEqual(key, presented)) ? { kind: "api-key" } : null;
}

/** Whether the request presents any key at all (right or wrong). */
export function presentsApiKey(headers: Headers | Record<string, string | string[] | undefined>): boolean {
  return presentedKey(headers) !== null;
}

function presentedKey(headers: Headers | Record<string, string | string[] | undefined>): string | null {
  const read = (name: string): string | null => {
    if (headers instanceof Headers) return headers.get(name);
    const value = headers[name];
    return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
  };
  const apiKey = read("x-api-key");
  if (apiKey) return apiKey.trim();
  const authorization = read("authorization");
  const match = authorization?.match(/^Bearer\s+(.+)$/i);
  return match ? match[1].trim() : null;
}

function safeEqual(expected: string, presented: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}
