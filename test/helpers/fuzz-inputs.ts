import { randomBytes } from "node:crypto";

/**
 * The hostile inputs of issue 25's fuzz, shared by the REST and GraphQL fuzz tests. Each stands
 * for a class of 5xx the issue found: nesting that overflowed recursive code, numbers PostgreSQL
 * rejects, strings past index-tuple and column limits, and wrong types.
 */

/** JSON text nested `levels` deep: `{"a":{"a":…}}` alternating with arrays. */
export function deepJsonText(levels: number): string {
  return '{"a":['.repeat(levels / 2) + "1" + "]}".repeat(levels / 2);
}

/** A value nested `levels` deep, built without recursion (for GraphQL variables). */
export function deepValue(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = level % 2 ? { a: value } : [value];
  return value;
}

/** Random text: PostgreSQL compresses a repeated character ~100-fold, hiding size limits. */
const randomText = (bytes: number) => randomBytes((bytes * 3) / 4).toString("base64url");
export const ONE_MEGABYTE_STRING = randomText(1024 * 1024);
/** Past every bound on keys, labels and names, yet cheap enough to send to every field. */
export const LONG_STRING = randomText(64 * 1024);

/** Values placed into one field at a time; the labels name them in failure reports. */
export const FIELD_VALUES: Array<[label: string, value: unknown]> = [
  ["1e308", 1e308],
  ["2^31", 2 ** 31],
  ["-1", -1],
  ["64 KB string", LONG_STRING],
  ["[64 KB string]", [LONG_STRING]],
  ["object", { wrong: ["type"] }],
];

/** Whether a GraphQL response reports an unexpected (masked) server error. */
export function isGraphqlServerError(status: number, text: string): boolean {
  return status >= 500 || text.includes('"INTERNAL_SERVER_ERROR"') || text.includes("Unexpected error.");
}

/** Runs `work` over items with at most `concurrency` in flight. */
export async function forEachConcurrently<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}
