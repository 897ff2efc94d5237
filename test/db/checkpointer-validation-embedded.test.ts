import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { validate } from "@langchain/langgraph-checkpoint-validation";
import { openDatabase } from "../../src/db/database.js";
import { migrateDatabase } from "../../src/db/migrate.js";
import { createLogger } from "../../src/logger.js";
import { hangarSaverInitializer } from "../helpers/checkpointer-validation.js";

// The same conformance suite on the embedded database (PGlite, one connection, migrated as at start-up).
validate(
  hangarSaverInitializer("hangar (embedded PGlite)", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hangar-saver-"));
    const log = createLogger("silent");
    const db = await openDatabase({ databaseUrl: null, dataDir }, log);
    await migrateDatabase(db, log);
    return {
      checkpointer: db.checkpointer,
      clear: () => db.pool.query("TRUNCATE checkpoints, checkpoint_blobs, checkpoint_writes").then(() => undefined),
      async close() {
        await db.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }),
);
