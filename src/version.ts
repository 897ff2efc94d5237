import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Hangar's own package.json, found by walking up from this file: the same code runs from src/
 * (tsx, tests) and from dist/src/ (built), which sit at different depths.
 */
function findPackageJson(): { version: string } {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(directory, "package.json");
    if (fs.existsSync(candidate)) {
      const parsed = JSON.parse(fs.readFileSync(candidate, "utf8")) as { name?: string; version: string };
      if (parsed.name === "hangar") return parsed;
    }
    const parent = path.dirname(directory);
    if (parent === directory) return { version: "0.0.0" };
    directory = parent;
  }
}

export const HANGAR_VERSION = findPackageJson().version;
