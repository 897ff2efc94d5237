import fs from "node:fs";
import path from "node:path";

/**
 * Why an output must be rebuilt from its inputs, or null when it is current: it is missing, or
 * some input file (directories are walked, `node_modules` skipped) was modified after it. Git
 * gives every file it changes on checkout or pull a new modification time, so comparing times
 * sees edits, branch switches and updates alike; a missing input is an error (a wrong path
 * would otherwise make every build look current).
 */
export function staleReason(output: string, inputs: readonly string[]): string | null {
  const built = modifiedAt(output);
  if (built === null) return `${output} does not exist`;
  for (const input of inputs) {
    if (modifiedAt(input) === null) throw new Error(`build input ${input} does not exist`);
    const newer = firstNewerFile(input, built);
    if (newer !== null) return `${newer} changed after ${output} was built`;
  }
  return null;
}

function modifiedAt(file: string): number | null {
  try {
    return fs.statSync(file).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function firstNewerFile(file: string, than: number): string | null {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs > than ? file : null;
  // A directory's own time changes when an entry is added, removed or renamed.
  if (stat.mtimeMs > than) return file;
  for (const entry of fs.readdirSync(file)) {
    if (entry === "node_modules") continue;
    const newer = firstNewerFile(path.join(file, entry), than);
    if (newer !== null) return newer;
  }
  return null;
}
