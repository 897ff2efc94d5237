import { parseJsonText as parseBoundedJson } from "../../domain/json-depth.js";

/**
 * A span's attributes, read through one object that remembers which keys a mapping used: what is
 * left at the end had no mapping, and the run says so (the raw attributes are kept regardless).
 */
export class AttributeReader {
  private readonly used = new Set<string>();
  private readonly keys: string[];

  constructor(readonly attributes: Readonly<Record<string, unknown>>) {
    this.keys = Object.keys(attributes);
  }

  /** The value of the first key present (marking every key tried as used when present). */
  get(...keys: string[]): unknown {
    for (const key of keys) {
      if (Object.hasOwn(this.attributes, key) && this.attributes[key] !== null) {
        this.used.add(key);
        return this.attributes[key];
      }
    }
    return undefined;
  }

  string(...keys: string[]): string | undefined {
    const value = this.get(...keys);
    if (typeof value === "string") return value.trim() === "" ? undefined : value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    return undefined;
  }

  number(...keys: string[]): number | undefined {
    const value = this.get(...keys);
    const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    return typeof number === "number" && Number.isFinite(number) ? number : undefined;
  }

  /** A value that instrumentations send as JSON text (messages, tool arguments) or as is. */
  json(...keys: string[]): unknown {
    return parseJsonText(this.get(...keys));
  }

  /** Every attribute under `prefix`, keyed by the rest of its name (all marked as used). */
  withPrefix(prefix: string): Record<string, unknown> {
    const found: Record<string, unknown> = {};
    for (const key of this.keys) {
      if (key.length === prefix.length || !key.startsWith(prefix)) continue;
      this.used.add(key);
      found[key.slice(prefix.length)] = this.attributes[key];
    }
    return found;
  }

  /**
   * Flattened lists as OpenInference and OpenLLMetry write them (`llm.input_messages.0.message.role`):
   * the attributes under `prefix`, rebuilt into a list of nested objects, in index order.
   */
  indexed(prefix: string): Record<string, unknown>[] {
    return indexedObjects(this.withPrefix(prefix));
  }

  has(key: string): boolean {
    return Object.hasOwn(this.attributes, key);
  }

  markUsed(...keys: string[]): void {
    for (const key of keys) if (this.has(key)) this.used.add(key);
  }

  /** markUsed for a fixed set of names: one pass over the span's own keys, however long the set. */
  markUsedIn(names: ReadonlySet<string>): void {
    for (const key of this.keys) if (names.has(key)) this.used.add(key);
  }

  unused(): string[] {
    return this.keys.filter((key) => !this.used.has(key));
  }
}

/** `{"0.a.b": 1, "1.a": 2}` → `[{a: {b: 1}}, {a: 2}]`; numeric segments deeper down become lists too. */
export function indexedObjects(flat: Record<string, unknown>): Record<string, unknown>[] {
  const root: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(flat)) {
    const segments = path.split(".");
    let node = root;
    segments.forEach((segment, index) => {
      if (index === segments.length - 1) node[segment] = value;
      else {
        const next = node[segment];
        node = typeof next === "object" && next !== null ? (next as Record<string, unknown>) : (node[segment] = {});
      }
    });
  }
  return toLists(root) as Record<string, unknown>[];
}

/** Objects whose keys are all digits become lists (ordered by index). */
function toLists(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([key, child]) => [key, toLists(child)] as const);
  if (entries.length > 0 && entries.every(([key]) => /^\d+$/.test(key))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, child]) => child);
  }
  return Object.fromEntries(entries);
}

/**
 * JSON text parsed when it is an object or array (within the depth limit of all JSON Hangar
 * reads); anything else, or text that does not parse, as given.
 */
export function parseJsonText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return value;
  const parsed = parseBoundedJson(trimmed, "attribute");
  return parsed.ok ? parsed.value : value;
}
