import { z } from "zod";

/**
 * Building blocks shared by the request schemas. Clients send `null` for "not given" as often as
 * they omit a key (the Python SDK does), so optional fields accept both and come out undefined.
 */
export function optional<Schema extends z.ZodType>(schema: Schema) {
  return schema.nullish().transform((value) => value ?? undefined);
}

/** Any JSON object (metadata, context, config, values filters). */
export const JsonObject = z.record(z.string(), z.unknown());

export const SortOrder = z.enum(["asc", "desc"]);

/** Page size of every list: 1..1000, default 10. */
export const Limit = z.number().int().min(1).max(1000).nullish().transform((value) => value ?? 10);

export const Offset = z.number().int().min(0).nullish().transform((value) => value ?? 0);

/** Query-string booleans as the SDK writes them (`true` / `false`). */
export const QueryBoolean = z.enum(["true", "false"]).transform((value) => value === "true");
