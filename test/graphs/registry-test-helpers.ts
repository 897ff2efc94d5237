import path from "node:path";
import { fileURLToPath } from "node:url";
import type { GraphRegistryLog } from "../../src/graphs/graph-registry.js";

export const FIXTURES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

export function fixturePath(name: string): string {
  return path.join(FIXTURES_DIR, name);
}

/** Collects log lines so tests can assert on warnings without printing them. */
export function createRecordingLog(): GraphRegistryLog & { lines: Array<{ level: string; message: string; fields: unknown }> } {
  const lines: Array<{ level: string; message: string; fields: unknown }> = [];
  return {
    lines,
    info: (fields, message) => lines.push({ level: "info", message, fields }),
    warn: (fields, message) => lines.push({ level: "warn", message, fields }),
  };
}
