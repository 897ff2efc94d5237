import { EntitySchema } from "typeorm";
import type { Assistant } from "../../domain/assistant.js";

/** The assistants row holds the active version's fields (see migrations/…-create-assistants). */
export const AssistantEntity = new EntitySchema<Assistant>({
  name: "Assistant",
  tableName: "assistants",
  columns: {
    assistantId: { name: "assistant_id", type: "uuid", primary: true },
    graphId: { name: "graph_id", type: "text" },
    name: { type: "text" },
    description: { type: "text", nullable: true },
    config: { type: "jsonb" },
    context: { type: "jsonb" },
    metadata: { type: "jsonb" },
    encryptionContext: { name: "encryption_context", type: "jsonb", nullable: true },
    version: { type: "integer" },
    createdAt: { name: "created_at", type: "timestamptz" },
    updatedAt: { name: "updated_at", type: "timestamptz" },
  },
});
