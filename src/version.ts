import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

interface OwnPackage {
  version: string;
  /** The directory holding Hangar's package.json (the repository or the installed package). */
  directory: string;
}

/**
 * Hangar's own package.json, found by walking up from this file: the same code runs from src/
 * (tsx, tests) and from dist/src/ (built), which sit at different depths.
 */
function findPackageJson(): OwnPackage {
  const start = path.dirname(fileURLToPath(import.meta.url));
  let directory = start;
  for (;;) {
    const candidate = path.join(directory, "package.json");
    if (fs.existsSync(candidate)) {
      const parsed = JSON.parse(fs.readFileSync(candidate, "utf8")) as { name?: string; version: string };
      if (parsed.name === "hangar") return { version: parsed.version, directory };
    }
    const parent = path.dirname(directory);
    if (parent === directory) return { version: "0.0.0", directory: path.resolve(start, "../..") };
    directory = parent;
  }
}

const ownPackage = findPackageJson();

export const HANGAR_VERSION = ownPackage.version;

/** Where Hangar's package lives; built assets (dist/web) are found relative to it. */
export const HANGAR_PACKAGE_DIR = ownPackage.directory;
