import type { Context } from "hono";
import type { z } from "zod";
import { InvalidInputError } from "../domain/errors.js";
import { readBoundedBody } from "../http/bounded-body.js";

/**
 * Reads and validates a JSON body. An empty body counts as {} (the SDK sends none for some
 * POSTs). Malformed JSON and schema violations are INVALID_INPUT (422) with a detail naming the
 * field; bodies over the limit are PAYLOAD_TOO_LARGE (413) even when no content-length was sent.
 */
export async function readJsonBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
  maxBytes: number,
): Promise<z.infer<Schema>> {
  const bytes = await readBoundedBody(c.req.raw, maxBytes);
  const text = new TextDecoder().decode(bytes).trim();
  let json: unknown = {};
  if (text.length > 0) {
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new InvalidInputError(`Request body is not valid JSON: ${(error as Error).message}`);
    }
  }
  return parseInput(schema, json, "body");
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
