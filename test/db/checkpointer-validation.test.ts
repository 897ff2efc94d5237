import { validate } from "@langchain/langgraph-checkpoint-validation";
import pg from "pg";
import { RunStampingCheckpointer } from "../../src/db/checkpointer.js";
import { hangarSaverInitializer } from "../helpers/checkpointer-validation.js";
import { createTestDatabase } from "../helpers/test-database.js";
import { endPool } from "../helpers/test-pool.js";

// LangGraph's official saver conformance suite (put, putWrites, getTuple, list, deleteThread)
// against Hangar's checkpointer on PostgreSQL. Its specs use vitest's globals (vitest.config.ts).
validate(
  hangarSaverInitializer("hangar (PostgreSQL)", async () => {
    const database = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    return {
      checkpointer: new RunStampingCheckpointer(pool),
      clear: () => pool.query("TRUNCATE checkpoints, checkpoint_blobs, checkpoint_writes").then(() => undefined),
      async close() {
        await endPool(pool);
        await database.retire();
      },
    };
  }),
);
