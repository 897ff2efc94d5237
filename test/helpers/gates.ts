import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * A gate file for the `slow` graph's last node (context `gate_file`, test/fixtures/graphs/slow.ts):
 * the run cannot end before the test opens it. What a reader received before `open()` reached it
 * live, while the run provably had not ended; and however long a loaded machine takes to stop or
 * kill a process, the run is still there to be handed back.
 */
export interface Gate {
  file: string;
  open(): Promise<void>;
}

/** Gates in a temporary folder of their own; `removeAll` deletes it (afterAll, or a cleanup). */
export async function createGates(): Promise<{ gate(): Gate; removeAll(): Promise<void> }> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "hangar-gates-"));
  return {
    gate() {
      const file = path.join(directory, randomUUID());
      return { file, open: () => fs.writeFile(file, "open") };
    },
    removeAll: () => fs.rm(directory, { recursive: true, force: true }),
  };
}
