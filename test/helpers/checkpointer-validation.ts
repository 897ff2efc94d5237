import type { CheckpointSaverTestInitializer } from "@langchain/langgraph-checkpoint-validation";
import type { RunStampingCheckpointer } from "../../src/db/checkpointer.js";

/**
 * The initializer @langchain/langgraph-checkpoint-validation (LangGraph's conformance tests for
 * savers) runs Hangar's checkpointer with. `open` provides a migrated database; every checkpointer
 * the suite creates starts on empty checkpoint tables, as the suite requires (its `list` cases
 * count every row).
 */
export function hangarSaverInitializer(
  name: string,
  open: () => Promise<{ checkpointer: RunStampingCheckpointer; clear(): Promise<void>; close(): Promise<void> }>,
): CheckpointSaverTestInitializer<RunStampingCheckpointer> {
  let opened: Awaited<ReturnType<typeof open>> | undefined;
  return {
    checkpointerName: name,
    beforeAllTimeout: 120_000,
    async beforeAll() {
      opened = await open();
    },
    async afterAll() {
      await opened?.close();
    },
    async createCheckpointer() {
      await opened!.clear();
      return opened!.checkpointer;
    },
  };
}
