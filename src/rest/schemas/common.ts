import { z } from "zod";
import { MAX_INT4 } from "../../domain/input-bounds.js";

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

export const Offset = z.number().int().min(0).max(MAX_INT4).nullish().transform((value) => value ?? 0);

/** Query-string booleans as the SDK writes them (`true` / `false`). */
export const QueryBoolean = z.enum(["true", "false"]).transform((value) => value === "true");

/**
 * A list in the query string, in each form clients send: repeated (`?a=x&a=y`), one JSON array
 * (`?a=["x","y"]`, what SDK 2.x writes for array options), or a single value (`?a=x`).
 */
export const QueryList = z.union([z.string(), z.array(z.string())]).transform((value, ctx) =>
  [value].flat().flatMap((item) => {
    if (!item.trimStart().startsWith("[")) return [item];
    try {
      const parsed: unknown = JSON.parse(item);
      if (Array.isArray(parsed) && parsed.every((element) => typeof element === "string")) return parsed as string[];
    } catch {
      // reported below
    }
    ctx.addIssue({ code: "custom", message: `must be a value or a JSON array of strings, got '${item}'` });
    return [];
  }),
);
