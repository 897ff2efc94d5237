/**
 * Graph payloads as LangSmith's own client stores them when JSON.stringify cannot take them as
 * they are: a model client holding a live timer (Node's Timeout links into the timer list, a
 * cycle), a BigInt, a getter or `toJSON` that throws. Facts from langsmith 0.12's serializer
 * (lib/utils/fast-safe-stringify), which this follows value by value:
 * - a reference back to an object on the current path (a cycle) becomes `{"result": "[Circular]"}`;
 *   the same object reached twice on different paths is written twice, as JSON.stringify would;
 * - Map → object of its entries, Set → array, Date → ISO text, RegExp → its source text,
 *   Error → `{name, message}`, BigInt → decimal text; `toJSON` is honoured;
 * - functions, symbols and `undefined` are left out of objects and become null in arrays,
 *   non-finite numbers become null (JSON.stringify's rules);
 * - a value that cannot be read at all (its getter or `toJSON` throws, or it nests deeper than the
 *   stack allows) becomes the text "[Unserializable]". LangSmith replaces the whole payload then;
 *   here only that value is, so the rest of the payload is kept.
 * LangSmith's cycle fallback serializes without its type handling (a BigInt next to a cycle turns
 * the whole payload into "[unable to serialize, ...]"); here every value is converted the same
 * way whether or not its payload has a cycle. test/tracing/trace-json.test.ts compares the two.
 */

export const CIRCULAR_MARKER = "[Circular]";
export const UNSERIALIZABLE_MARKER = "[Unserializable]";

/** Stands for "leave this key out", as JSON.stringify does for functions and undefined. */
const OMITTED = Symbol("omitted");

/** The JSON value LangSmith's client would have stored for `value` (undefined when it stores none). */
export function toTraceJson(value: unknown): unknown {
  const path = new Set<object>();

  const convert = (raw: unknown, key: string): unknown => {
    let value = raw;
    if (typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function") {
      if (path.has(value)) return { result: CIRCULAR_MARKER };
      value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
    }
    value = wellKnownValue(value);
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "number":
        return Number.isFinite(value) ? value : null;
      case "undefined":
      case "function":
      case "symbol":
        return OMITTED;
    }
    if (value === null) return null;
    const object = value as object;
    if (path.has(object)) return { result: CIRCULAR_MARKER };
    path.add(object);
    try {
      if (Array.isArray(object)) {
        return object.map((item, index) => {
          const converted = convertOrMark(item, String(index));
          return converted === OMITTED ? null : converted;
        });
      }
      const result: Record<string, unknown> = {};
      for (const name of Object.keys(object)) {
        let child: unknown;
        try {
          child = (object as Record<string, unknown>)[name];
        } catch {
          result[name] = UNSERIALIZABLE_MARKER;
          continue;
        }
        const converted = convertOrMark(child, name);
        if (converted !== OMITTED) result[name] = converted;
      }
      return result;
    } finally {
      path.delete(object);
    }
  };

  const convertOrMark = (raw: unknown, key: string): unknown => {
    try {
      return convert(raw, key);
    } catch {
      return UNSERIALIZABLE_MARKER;
    }
  };

  const converted = convertOrMark(value, "");
  return converted === OMITTED ? undefined : converted;
}

/** The types LangSmith's replacer turns into plain values before serializing. */
function wellKnownValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return Array.from(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof RegExp) return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  // Boxed primitives (new String("x")) serialize as their primitive, as in JSON.stringify.
  if (value instanceof String || value instanceof Number || value instanceof Boolean) return value.valueOf();
  return value;
}
