import { EntitySchema } from "typeorm";
import type { AssistantVersion } from "../../domain/assistant.js";

export const AssistantVersionEntity = new EntitySchema<AssistantVersion>({
  name: "AssistantVersion",
  tableName: "assistant_versions",
  columns: {
    assistantId: { name: "assistant_id", type: "uuid", primary: true },
    version: { type: "integer", primary: true },
    graphId: { name: "graph_id", type: "text" },
    name: { type: "text" },
    description: { type: "text", nullable: true },
    config: { type: "jsonb" },
    context: { type: "jsonb" },
    metadata: { type: "jsonb" },
    encryptionContext: { name: "encryption_context", type: "jsonb", nullable: true },
    createdAt: { name: "created_at", type: "timestamptz" },
  },
});
