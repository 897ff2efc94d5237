import { replaceUnstorableCharacters } from "../../domain/storable-text.js";

/**
 * PostgreSQL text and jsonb cannot hold U+0000 or unpaired UTF-16 surrogates (domain/storable-text.ts),
 * and one such character would fail a whole batch. Traces sent to /tracing are refused at the edge
 * (422); the graph traces the worker records itself get them replaced with U+FFFD and a warning on
 * the trace run: the only place where a trace run is not stored exactly as sent.
 */

export const UNSTORABLE_TEXT_WARNING =
  "text contained U+0000 or unpaired surrogates, which PostgreSQL cannot store; they were replaced with U+FFFD";

export { mayHoldUnstorableText } from "../../domain/storable-text.js";

/** A deep copy with unstorable characters replaced, and whether anything changed. */
export function toStorableValue<Value>(value: Value): { value: Value; changed: boolean } {
  let changed = false;
  const clean = (text: string): string => {
    const result = replaceUnstorableCharacters(text);
    if (result !== text) changed = true;
    return result;
  };
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return clean(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node instanceof Date || node === null || typeof node !== "object") return node;
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [clean(key), walk(child)]));
  };
  const result = walk(value) as Value;
  return { value: result, changed };
}
