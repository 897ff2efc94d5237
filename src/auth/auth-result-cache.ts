import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { AuthUser } from "./auth-types.js";

/**
 * langgraph.json `auth.cache` (LangGraph's CacheConfig): successful `authenticate` results are
 * kept for `ttl_seconds`, at most `max_size` of them, keyed by the request headers named in
 * `cache_keys`. Without `cache_keys` the key is every header of the request, so two requests
 * share a result only when nothing they send differs: always right, rarely a hit. Refusals are
 * never cached (a fixed token must work at once). Keys are SHA-256 digests: tokens are not kept.
 * A token that expires within the TTL stays accepted until its entry does: keep the TTL short.
 */
export interface AuthCacheSettings {
  cacheKeys: readonly string[] | null;
  ttlSeconds: number;
  maxSize: number;
}

/** Hangar's defaults where LangGraph documents none: a minute, a thousand callers. */
export const DEFAULT_AUTH_CACHE_TTL_SECONDS = 60;
export const DEFAULT_AUTH_CACHE_MAX_SIZE = 1000;

export class AuthResultCache {
  private readonly entries: LRUCache<string, AuthUser>;
  private readonly headerNames: readonly string[] | null;

  constructor(settings: AuthCacheSettings) {
    this.entries = new LRUCache({ max: settings.maxSize, ttl: settings.ttlSeconds * 1000 });
    this.headerNames = settings.cacheKeys?.map((name) => name.toLowerCase()) ?? null;
  }

  /** The request's key: a digest of the named headers' values (absent ones count as absent). */
  keyOf(request: Request): string {
    const hash = createHash("sha256");
    const names = this.headerNames ?? [...request.headers.keys()].sort();
    for (const name of names) {
      const value = request.headers.get(name);
      hash.update(`${name}\u0000${value === null ? "\u0001" : `=${value}`}\u0000`);
    }
    return hash.digest("base64url");
  }

  get(key: string): AuthUser | undefined {
    return this.entries.get(key);
  }

  set(key: string, user: AuthUser): void {
    this.entries.set(key, user);
  }
}
