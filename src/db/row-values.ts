import type { ObjectLiteral, QueryDeepPartialEntity } from "typeorm";

/**
 * An entity's own values as TypeORM's insert and update take them. QueryDeepPartialEntity maps
 * every property deeply, and a jsonb property's `unknown` values (JsonObject) map to `{}`, which
 * `unknown` does not fit: the values already have the entity's type, so the cast only restates it
 * in the shape TypeORM's signature asks for.
 */
export function rowValues<T extends ObjectLiteral>(values: Partial<T>): QueryDeepPartialEntity<T> {
  return values as QueryDeepPartialEntity<T>;
}
