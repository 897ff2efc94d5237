import type { Context } from "hono";
import type { z } from "zod";
import { InvalidInputError } from "../domain/errors.js";
import { assertJsonDepth } from "../domain/json-depth.js";
import { assertStorableText, mayHoldUnstorableText } from "../domain/storable-text.js";
import { readBoundedJson } from "../http/bounded-body.js";

/**
 * Reads and validates a JSON body. An empty body counts as {} (the SDK sends none for some
 * POSTs). Malformed JSON and schema violations are INVALID_INPUT (422) with a detail naming the
 * field, and so is JSON nested deeper than the limit (domain/json-depth.ts), refused before it is
 * parsed; bodies over the limit are PAYLOAD_TOO_LARGE (413) even when no content-length was sent.
 * A string PostgreSQL cannot store (NUL, unpaired surrogate) anywhere in the body is INVALID_INPUT
 * naming its JSON path (domain/storable-text.ts), whatever the route does with it.
 */
export async function readJsonBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
  maxBytes: number,
): Promise<z.infer<Schema>> {
  if (c.req.raw.bodyUsed) {
    // A custom route's middleware (http.app) read the body first, possibly rewriting it: Hono keeps
    // what it parsed for the request, and that (rewritten) value is the body.
    const parsed: unknown = await c.req.json().catch((error: unknown) => {
      throw new InvalidInputError(`Request body is not valid JSON: ${(error as Error).message}`);
    });
    assertJsonDepth(parsed, "body");
    assertStorableText(parsed, "body");
    return parseInput(schema, parsed, "body");
  }
  const parsed = await readBoundedJson(c.req.raw, maxBytes);
  if (parsed === null) return parseInput(schema, {}, "body");
  if (!parsed.ok) throw new InvalidInputError(parsed.message);
  // The depth limit bounds this walk's recursion (MAX_JSON_DEPTH levels).
  if (mayHoldUnstorableText(parsed.text)) assertStorableText(parsed.value, "body");
  return parseInput(schema, parsed.value, "body");
}

/** Validates query parameters (or any plain object) against a zod schema. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown, where: string): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const field = issue.path.length ? issue.path.join(".") : where;
      return `${field}: ${issue.message}`;
    });
    throw new InvalidInputError(`Invalid ${where}: ${problems.join("; ")}`);
  }
  return result.data;
}

/**
 * The URL's part of the storable-text rule (domain/storable-text.ts): a NUL in a path segment or
 * query parameter (`%00`) is INVALID_INPUT naming it. Percent-decoding cannot yield an unpaired
 * surrogate (invalid UTF-8 is left encoded), so NUL is the only case here.
 */
export function assertStorableUrl(c: Context): void {
  // Only `%00` decodes to NUL (HTTP parsers refuse a raw NUL byte in a URL): a URL without it has
  // nothing to refuse, which spares nearly every request the decoding of its segments and query.
  if (!c.req.url.includes("%00")) return;
  const segments = c.req.path.split("/");
  segments.forEach((segment, index) => {
    assertStorableText(decodePathSegment(segment), `path segment ${index} ('${segment.replaceAll("\u0000", "%00")}')`);
  });
  for (const [name, values] of Object.entries(c.req.queries())) {
    assertStorableText({ [name]: values.length === 1 ? values[0] : values }, "query");
  }
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // not valid percent-encoding: routes see it as it is
  }
}
