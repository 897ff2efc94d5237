import { InvalidInputError } from "./errors.js";

/**
 * PostgreSQL cannot store two things a JavaScript string (and so a JSON string) can hold: the NUL
 * character (text and jsonb refuse U+0000) and an unpaired UTF-16 surrogate (jsonb refuses the
 * `\ud800` escape; in a text parameter node-postgres would silently turn it into U+FFFD). Hangar's
 * one rule: input holding either is refused with INVALID_INPUT naming the field, at the edge of
 * every transport (REST, GraphQL, /tracing ingest), before anything is written; graph output
 * holding either fails its run with the same description (services/run-lifecycle/settle-run.ts). What the worker
 * records about a run rather than its result (the graph's own trace, an error message) has such
 * characters replaced by U+FFFD instead (services/traces/storable-text.ts for traces): losing the
 * trace or the failure over one character would be worse.
 */
export interface UnstorableText {
  /** Where it is, as a JSON path from the given root (`body.metadata.note`, `variables.input.name`). */
  path: string;
  problem: "a NUL character (\\u0000)" | "an unpaired UTF-16 surrogate";
}

// A surrogate pair is fine; a high surrogate not followed by a low one, or a low one alone, is not.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const UNSTORABLE_GLOBAL = new RegExp(UNSTORABLE.source, "g");

/** The first unstorable string (value or object key) in a JSON-like value, depth first. */
export function findUnstorableText(value: unknown, path: string): UnstorableText | null {
  if (typeof value === "string") return describe(value, path);
  if (typeof value !== "object" || value === null) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findUnstorableText(value[index], `${path}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = describe(key, `${path} (a key)`);
    if (keyProblem) return keyProblem;
    const found = findUnstorableText(item, `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

/** Throws INVALID_INPUT naming the first unstorable string in value. */
export function assertStorableText(value: unknown, path: string): void {
  const found = findUnstorableText(value, path);
  if (found) throw new InvalidInputError(describeUnstorableText(found));
}

export function describeUnstorableText(found: UnstorableText): string {
  return `${found.path}: text contains ${found.problem}, which cannot be stored`;
}

/** value with every unstorable character replaced by U+FFFD; value itself when it has none. */
export function replaceUnstorableText<T>(value: T): T {
  if (!findUnstorableText(value, "")) return value;
  return replaceIn(value) as T;
}

/** text with every NUL and unpaired surrogate replaced by U+FFFD. */
export function replaceUnstorableCharacters(text: string): string {
  return text.replace(UNSTORABLE_GLOBAL, "\ufffd");
}

function replaceIn(value: unknown): unknown {
  if (typeof value === "string") return replaceUnstorableCharacters(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(replaceIn);
  // A class instance (a LangChain message) is stored as its JSON form: replace within that.
  if (Object.getPrototypeOf(value) !== Object.prototype) return replaceIn(JSON.parse(JSON.stringify(value)));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [replaceIn(key), replaceIn(item)]));
}

/**
 * Whether JSON text may decode to an unstorable string: true when it holds a `\u0000` or a
 * `\ud8xx`–`\udfxx` escape (raw NUL is not valid JSON, and UTF-8 decoding never yields a lone
 * surrogate). Lets large bodies without any such escape skip the walk.
 */
export function mayHoldUnstorableText(jsonText: string): boolean {
  return /\\u(?:0000|d[89a-f])/i.test(jsonText);
}

function describe(text: string, path: string): UnstorableText | null {
  const match = UNSTORABLE.exec(text);
  if (!match) return null;
  return { path, problem: match[0] === "\u0000" ? "a NUL character (\\u0000)" : "an unpaired UTF-16 surrogate" };
}
