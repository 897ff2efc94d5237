import { parseJsonObject } from "./json-input.js";

/**
 * A metadata search as typed: a JSON object (`{"ticket": 4711}`, matched exactly as written), or
 * `key=value` pairs separated by spaces or commas (`owner=qa-team ticket=4711`). A typed value
 * matches the metadata whether it was stored as text or as the JSON it reads as: `ticket=4711`
 * finds `"ticket": "4711"` and `"ticket": 4711`. The result is the list of objects the server's
 * `metadataAnyOf` matches by containment (jsonb @>): one object per combination of forms.
 */
export type MetadataFilter = { ok: true; alternatives: Array<Record<string, unknown>> | null } | { ok: false; message: string };

/** The server's bound on metadataAnyOf (services/threads.service.ts MAX_METADATA_ALTERNATIVES). */
const MAX_ALTERNATIVES = 64;

export function parseMetadataFilter(text: string): MetadataFilter {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, alternatives: null };
  if (trimmed.startsWith("{")) {
    const parsed = parseJsonObject(trimmed);
    return parsed.ok ? { ok: true, alternatives: [parsed.value] } : { ok: false, message: parsed.message };
  }
  let alternatives: Array<Record<string, unknown>> = [{}];
  for (const pair of trimmed.split(/[\s,]+/).filter(Boolean)) {
    const equals = pair.indexOf("=");
    if (equals <= 0) return { ok: false, message: `"${pair}" is not key=value (or type a JSON object)` };
    const key = pair.slice(0, equals);
    const forms = formsOf(pair.slice(equals + 1));
    alternatives = alternatives.flatMap((alternative) => forms.map((form) => ({ ...alternative, [key]: form })));
    if (alternatives.length > MAX_ALTERNATIVES) {
      return { ok: false, message: "Too many values that read both as text and as JSON: type a JSON object instead" };
    }
  }
  return { ok: true, alternatives };
}

/** The text itself, and its JSON reading (number, boolean, null, …) when it has one. */
function formsOf(text: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "string" ? [parsed] : [text, parsed];
  } catch {
    return [text];
  }
}
