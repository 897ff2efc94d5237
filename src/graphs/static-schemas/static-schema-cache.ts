import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { StaticDeploymentGraph, StaticSchemaRequest, StaticSchemasResult } from "./extract-static-schemas.js";

/**
 * Schemas from graphs' TypeScript types, kept on disk between starts: compiling them takes
 * seconds of CPU (~900 declaration files for the example deployment: 5 s on an idle machine,
 * over a minute on a loaded one), while a restart with nothing changed needs none of it.
 *
 * An entry is keyed by the requests (module paths and exports) and by the code that derives the
 * schemas (this directory's modules and the message schemas, by size and modification time), and
 * lists every file the compiler read with its size and modification time: it is used only when
 * all of them are unchanged, so editing a graph, its imports or an installed package's types
 * recompiles. A file that would newly take part in module resolution (a new `.d.ts` next to a
 * `.js`) is not seen; restart with a clean cache directory after such a change.
 */
export interface StaticSchemaCache {
  read(requests: readonly StaticSchemaRequest[]): Promise<StaticDeploymentGraph[] | null>;
  write(requests: readonly StaticSchemaRequest[], result: StaticSchemasResult): Promise<void>;
}

type FileStamp = [path: string, size: number, modifiedMs: number];

interface CacheEntry {
  sourceFiles: FileStamp[];
  graphs: StaticDeploymentGraph[];
}

const here = path.dirname(fileURLToPath(import.meta.url));
// The modules whose output is cached: a change to any of them is a new key.
const DERIVING_CODE = [here, path.join(here, "..")];

export function createStaticSchemaCache(directory: string): StaticSchemaCache {
  const entryPath = async (requests: readonly StaticSchemaRequest[]) =>
    path.join(directory, `static-schemas-${await cacheKey(requests)}.json`);
  return {
    async read(requests) {
      let entry: CacheEntry;
      try {
        entry = JSON.parse(await fs.readFile(await entryPath(requests), "utf8")) as CacheEntry;
      } catch {
        return null;
      }
      const current = await Promise.all(entry.sourceFiles.map(([file]) => stampOf(file)));
      const unchanged = entry.sourceFiles.every((stamp, index) => sameStamp(stamp, current[index] ?? null));
      return unchanged ? entry.graphs : null;
    },
    async write(requests, result) {
      const stamps = await Promise.all(result.sourceFiles.map(stampOf));
      // A file gone since it was compiled: the entry could never be valid.
      if (stamps.some((stamp) => stamp === null)) return;
      const entry: CacheEntry = { sourceFiles: stamps as FileStamp[], graphs: result.graphs };
      await fs.mkdir(directory, { recursive: true });
      const target = await entryPath(requests);
      // Written aside, then renamed: a reader never sees half an entry.
      const partial = `${target}.${process.pid}.tmp`;
      await fs.writeFile(partial, JSON.stringify(entry));
      await fs.rename(partial, target);
    },
  };
}

async function cacheKey(requests: readonly StaticSchemaRequest[]): Promise<string> {
  const code: FileStamp[] = [];
  for (const directory of DERIVING_CODE) {
    for (const name of (await fs.readdir(directory)).sort()) {
      if (!/\.(?:ts|js)$/.test(name)) continue;
      const stamp = await stampOf(path.join(directory, name));
      if (stamp !== null) code.push(stamp);
    }
  }
  return createHash("sha256").update(JSON.stringify({ requests, code })).digest("hex").slice(0, 32);
}

async function stampOf(file: string): Promise<FileStamp | null> {
  try {
    const stat = await fs.stat(file);
    return [file, stat.size, stat.mtimeMs];
  } catch {
    return null;
  }
}

function sameStamp(stored: FileStamp, current: FileStamp | null): boolean {
  return current !== null && stored[1] === current[1] && stored[2] === current[2];
}
