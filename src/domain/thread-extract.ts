import { InvalidInputError } from "./errors.js";
import type { JsonObject } from "./json.js";
import type { Thread } from "./thread.js";

/**
 * `extract` on a thread search (LangGraph Platform's ThreadSearchRequest.extract): a map of
 * alias → path into the thread, answered per thread as `extracted: {alias: value}`. A path starts
 * at values, metadata, config or interrupts, names keys with dots and list items with brackets
 * (negative from the end): `values.messages[-1].content`. At most 10 paths, as LangGraph's
 * server allows. A path that leads nowhere in a thread extracts null there.
 */
export const MAX_EXTRACT_PATHS = 10;
const EXTRACT_ROOTS = ["values", "metadata", "config", "interrupts"] as const;

type PathStep = { key: string } | { index: number };
export interface ExtractPath {
  alias: string;
  root: (typeof EXTRACT_ROOTS)[number];
  steps: PathStep[];
}

const SEGMENT = /^([^.[\]]+)((?:\[-?\d+\])*)$/;

/** The paths of an `extract` map; INVALID_INPUT naming the alias and what is wrong with its path. */
export function parseExtractPaths(extract: Record<string, string>): ExtractPath[] {
  const entries = Object.entries(extract);
  if (entries.length > MAX_EXTRACT_PATHS) {
    throw new InvalidInputError(`extract: at most ${MAX_EXTRACT_PATHS} paths, got ${entries.length}`);
  }
  return entries.map(([alias, path]) => {
    const problem = (why: string) => new InvalidInputError(`extract.${alias}: ${why} (got ${JSON.stringify(path)})`);
    const steps: PathStep[] = [];
    for (const segment of path.split(".")) {
      const match = SEGMENT.exec(segment);
      if (!match) throw problem("a path is keys joined by dots, each optionally followed by [index], e.g. values.messages[-1]");
      steps.push({ key: match[1]! });
      for (const index of match[2]!.matchAll(/\[(-?\d+)\]/g)) steps.push({ index: Number(index[1]) });
    }
    const [first, ...rest] = steps;
    const root = first && "key" in first ? first.key : undefined;
    if (!(EXTRACT_ROOTS as readonly (string | undefined)[]).includes(root)) {
      throw problem(`a path starts with ${EXTRACT_ROOTS.join(", ")}`);
    }
    return { alias, root: root as ExtractPath["root"], steps: rest };
  });
}

/** The values `paths` lead to in `thread`, by alias; null where a path leads nowhere. */
export function extractFromThread(thread: Pick<Thread, ExtractPath["root"]>, paths: readonly ExtractPath[]): JsonObject {
  const extracted: JsonObject = {};
  for (const path of paths) {
    let value: unknown = thread[path.root];
    for (const step of path.steps) value = stepInto(value, step);
    extracted[path.alias] = value ?? null;
  }
  return extracted;
}

function stepInto(value: unknown, step: PathStep): unknown {
  if ("index" in step) {
    if (!Array.isArray(value)) return undefined;
    return value[step.index < 0 ? value.length + step.index : step.index];
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, step.key) ? (value as Record<string, unknown>)[step.key] : undefined;
}
