/**
 * A structural diff of two JSON values, as a list of changed paths. Assistant versions differ in
 * a handful of keys deep inside `context` or `metadata`; a list such as
 * `context.system_prompt: "You are terse." → "You are verbose."` reads better than a line diff of
 * two pretty-printed documents, where the change hides among braces.
 *
 * Arrays are compared index by index (an inserted element shows as changes to every later
 * index): configuration arrays are short, and a longest-common-subsequence pass would buy little
 * for the code it costs.
 */

export type DiffKind = "added" | "removed" | "changed";

export interface DiffEntry {
  /** A readable path from the root: `context.tools[2].name`, `metadata["created by"]`. */
  path: string;
  kind: DiffKind;
  /** Absent for "added". */
  before?: unknown;
  /** Absent for "removed". */
  after?: unknown;
}

export function diffJson(before: unknown, after: unknown): DiffEntry[] {
  const entries: DiffEntry[] = [];
  collectDifferences(before, after, "", entries);
  return entries;
}

function collectDifferences(before: unknown, after: unknown, path: string, into: DiffEntry[]): void {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...Object.keys(before), ...Object.keys(after).filter((key) => !(key in before))];
    for (const key of keys) {
      const childPath = joinKey(path, key);
      if (!(key in after)) into.push({ path: childPath, kind: "removed", before: before[key] });
      else if (!(key in before)) into.push({ path: childPath, kind: "added", after: after[key] });
      else collectDifferences(before[key], after[key], childPath, into);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const shared = Math.min(before.length, after.length);
    for (let index = 0; index < shared; index++) {
      collectDifferences(before[index], after[index], `${path}[${index}]`, into);
    }
    for (let index = shared; index < before.length; index++) {
      into.push({ path: `${path}[${index}]`, kind: "removed", before: before[index] });
    }
    for (let index = shared; index < after.length; index++) {
      into.push({ path: `${path}[${index}]`, kind: "added", after: after[index] });
    }
    return;
  }
  if (!isDeepEqual(before, after)) into.push({ path: path || "(value)", kind: "changed", before, after });
}

/** Deep equality of JSON values; object key order does not matter. */
export function isDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => isDeepEqual(item, b[index]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && isDeepEqual(a[key], b[key]));
  }
  return false;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function joinKey(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The fields of an assistant version that a person edits, in the order a diff should list them. */
export interface ComparableVersion {
  name: string;
  description?: string | null;
  graphId: string;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  config: Record<string, unknown>;
}

export function diffVersions(before: ComparableVersion, after: ComparableVersion): DiffEntry[] {
  const comparable = (version: ComparableVersion) => ({
    name: version.name,
    description: version.description ?? null,
    graphId: version.graphId,
    context: version.context,
    metadata: version.metadata,
    config: version.config,
  });
  return diffJson(comparable(before), comparable(after));
}
