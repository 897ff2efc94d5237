/**
 * PostgreSQL text and jsonb cannot hold U+0000 or unpaired UTF-16 surrogates (jsonb rejects the
 * `\u0000` and lone `\udXXX` escapes JSON.stringify writes for them), and one such character
 * would fail a whole batch. They are replaced with U+FFFD and the run gets a warning: the only
 * place where a run is not stored exactly as sent.
 */

// JSON.stringify escapes exactly these as \u0000 / \udXXX (paired surrogates are written raw), so
// a scan of the serialized batch finds them without walking every object. A literal backslash
// followed by "u0000" in user text also matches; the walk below then changes nothing.
const SUSPICIOUS_ESCAPE = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i;

// Code-unit regex (no u flag): a high surrogate not followed by a low one, or a low one not
// preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const UNSTORABLE_TEXT_WARNING =
  "text contained U+0000 or unpaired surrogates, which PostgreSQL cannot store; they were replaced with U+FFFD";

export function mayHoldUnstorableText(serialized: string): boolean {
  return SUSPICIOUS_ESCAPE.test(serialized);
}

/** A deep copy with unstorable characters replaced, and whether anything changed. */
export function toStorableValue<Value>(value: Value): { value: Value; changed: boolean } {
  let changed = false;
  const clean = (text: string): string => {
    const result = text.replace(LONE_SURROGATE, "\uFFFD").replaceAll("\u0000", "\uFFFD");
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
