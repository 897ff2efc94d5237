import { EntitySchema } from "typeorm";
import type { Thread } from "../../domain/thread.js";

export const ThreadEntity = new EntitySchema<Thread>({
  name: "Thread",
  tableName: "threads",
  columns: {
    threadId: { name: "thread_id", type: "uuid", primary: true },
    createdAt: { name: "created_at", type: "timestamptz" },
    updatedAt: { name: "updated_at", type: "timestamptz" },
    stateUpdatedAt: { name: "state_updated_at", type: "timestamptz" },
    metadata: { type: "jsonb" },
    config: { type: "jsonb" },
    status: { type: "text" },
    values: { type: "jsonb", nullable: true },
    interrupts: { type: "jsonb" },
    error: { type: "jsonb", nullable: true },
    ttlMinutes: { name: "ttl_minutes", type: "double precision", nullable: true },
    encryptionContext: { name: "encryption_context", type: "jsonb", nullable: true },
  },
});
