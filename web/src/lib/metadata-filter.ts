import { parseJsonObject } from "./json-input.js";

/**
 * A metadata search as typed: a JSON object (`{"owner": "qa-team"}`), or `key=value` pairs
 * separated by spaces or commas (`owner=qa-team ticket=4711`), each value read as JSON when it
 * is JSON (numbers, booleans, null) and as text otherwise. The server matches threads whose
 * metadata contains the object (jsonb @>).
 */
export type MetadataFilter = { ok: true; value: Record<string, unknown> | null } | { ok: false; message: string };

export function parseMetadataFilter(text: string): MetadataFilter {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: null };
  if (trimmed.startsWith("{")) {
    const parsed = parseJsonObject(trimmed);
    return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, message: parsed.message };
  }
  const value: Record<string, unknown> = {};
  for (const pair of trimmed.split(/[\s,]+/).filter(Boolean)) {
    const equals = pair.indexOf("=");
    if (equals <= 0) return { ok: false, message: `"${pair}" is not key=value (or type a JSON object)` };
    value[pair.slice(0, equals)] = readValue(pair.slice(equals + 1));
  }
  return { ok: true, value };
}

function readValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
