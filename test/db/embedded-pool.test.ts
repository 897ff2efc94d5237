import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openEmbeddedPool } from "../../src/db/embedded-pool.js";

describe("openEmbeddedPool", () => {
  const dirs: string[] = [];
  const newDataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hangar-embedded-pool-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("takes the buffer pool the operator asks for (HANGAR_EMBEDDED_SHARED_BUFFERS)", async () => {
    const embedded = await openEmbeddedPool(newDataDir(), { sharedBuffers: "48MB" });
    try {
      const { rows } = await embedded.pool.query<{ shared_buffers: string }>("SELECT current_setting('shared_buffers') AS shared_buffers");
      expect(rows[0]!.shared_buffers).toBe("48MB");
    } finally {
      await embedded.close();
    }
    // An initdb, like the next test's: it took over 30 s (and the next one's 100 s) with the machine loaded.
  }, 120_000);

  it("creates a new database over what an interrupted initdb left, with the engine's memory settings", async () => {
    const dataDir = newDataDir();
    // What a start killed during initdb leaves: a half-built directory beside an empty one.
    fs.mkdirSync(path.join(dataDir, "pgdata.partial", "base"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "pgdata.partial", "PG_VERSION"), "18\n");
    fs.mkdirSync(path.join(dataDir, "pgdata"));

    const embedded = await openEmbeddedPool(dataDir);
    try {
      const { rows } = await embedded.pool.query<{ shared_buffers: string; maintenance_work_mem: string }>(
        "SELECT current_setting('shared_buffers') AS shared_buffers, current_setting('maintenance_work_mem') AS maintenance_work_mem",
      );
      expect(rows[0]).toEqual({ shared_buffers: "16MB", maintenance_work_mem: "16MB" });
      await embedded.pool.query("CREATE TABLE kept (id int)");
    } finally {
      await embedded.close();
    }
    expect(fs.existsSync(path.join(dataDir, "pgdata.partial"))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "pgdata", "PG_VERSION"))).toBe(true);

    // Reopened, the directory is used as it is (no new initdb: the table is still there).
    const again = await openEmbeddedPool(dataDir);
    try {
      const { rows } = await again.pool.query<{ table: string | null }>("SELECT to_regclass('kept')::text AS table");
      expect(rows[0]!.table).toBe("kept");
    } finally {
      await again.close();
    }
  }, 120_000);

  it("refuses a pgdata directory that holds files but no database, naming it, and releases the lock", async () => {
    const dataDir = newDataDir();
    fs.mkdirSync(path.join(dataDir, "pgdata"));
    fs.writeFileSync(path.join(dataDir, "pgdata", "notes.txt"), "not a database\n");
    await expect(openEmbeddedPool(dataDir)).rejects.toThrow(`${path.join(dataDir, "pgdata")} holds files but no database`);
    expect(fs.readFileSync(path.join(dataDir, "pgdata", "notes.txt"), "utf8")).toBe("not a database\n");
    expect(fs.existsSync(path.join(dataDir, "hangar.lock"))).toBe(false);
  });
});
