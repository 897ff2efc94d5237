import { isPlainObject } from "./json-diff.js";

/** What a JSON text field holds: an object ready to send, or why it is not one. */
export type JsonObjectInput =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string; line: number | null; column: number | null };

/**
 * Parses a text field that must hold a JSON object (the schema's JSONObject scalar: never an
 * array, string or null). An empty field means `{}`. Syntax errors carry a 1-based line and
 * column, computed from the position V8 reports, so the editor can point at them.
 */
export function parseJsonObject(text: string): JsonObjectInput {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? lineAndColumn(text, Number(position[1])) : null;
    return {
      ok: false,
      message: `Invalid JSON: ${message.replace(/\s*\(line \d+ column \d+\)/, "")}`,
      line: where?.line ?? null,
      column: where?.column ?? null,
    };
  }
  if (!isPlainObject(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    return { ok: false, message: `Must be a JSON object ({…}), not ${kind}`, line: null, column: null };
  }
  return { ok: true, value };
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split("\n");
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/**
 * Parses a free-form value (a resume value, a run input): JSON when it parses, else the text
 * itself, so typing `yes` sends the string "yes" and typing `{"ok": true}` sends an object.
 */
export function parseLooseJson(text: string): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

/** Two-space pretty JSON, as the editors show it. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "null";
}
